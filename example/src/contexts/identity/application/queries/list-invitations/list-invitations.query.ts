import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { identityPermissions } from "../../../identity.permissions.ts";

/** What ListInvitations answers. */
export interface ListInvitationsResult {
  readonly id: string;
}

/** ListInvitations: what the actor asks of the identity context; needs 'person.invite'. */
@Requires(identityPermissions["person.invite"])
export class ListInvitations extends AuthorizedQuery<ListInvitationsResult> {
  constructor(actor: Actor) {
    super(actor);
  }
}
