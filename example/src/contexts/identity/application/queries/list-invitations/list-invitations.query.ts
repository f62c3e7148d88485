import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import type { Invitation } from "../../../domain/person.ts";
import { identityPermissions } from "../../../identity.permissions.ts";

/** The invitations of the practice of the work. Needs 'person.invite'. */
@Requires(identityPermissions["person.invite"])
export class ListInvitations extends AuthorizedQuery<Invitation[]> {
  constructor(actor: Actor) {
    super(actor);
  }
}
