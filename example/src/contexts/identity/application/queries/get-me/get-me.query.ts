import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { identityPermissions } from "../../../identity.permissions.ts";

/** What GetMe answers: the caller as the token says, and their profile once registered. */
export interface GetMeResult {
  readonly id: string;
  readonly roles: readonly string[];
  readonly tenants: readonly string[];
  readonly registered: boolean;
  readonly name?: string;
  readonly email?: string;
}

/** The sender's own identity. Needs 'person.read-self'. */
@Requires(identityPermissions["person.read-self"])
export class GetMe extends AuthorizedQuery<GetMeResult> {
  constructor(actor: Actor) {
    super(actor);
  }
}
