import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { identityPermissions } from "../../../identity.permissions.ts";

/** What GetMe answers. */
export interface GetMeResult {
  readonly id: string;
}

/** GetMe: what the actor asks of the identity context; needs 'person.read-self'. */
@Requires(identityPermissions["person.read-self"])
export class GetMe extends AuthorizedQuery<GetMeResult> {
  constructor(actor: Actor) {
    super(actor);
  }
}
