import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { identityPermissions } from "../../../identity.permissions.ts";

/** Invites someone (by email) to the practice in a role. Needs 'person.invite'. */
@Requires(identityPermissions["person.invite"])
export class InvitePerson extends AuthorizedCommand<{ id: string }> {
  constructor(
    actor: Actor,
    readonly email: string,
    readonly role: "patient" | "receptionist" | "practitioner",
  ) {
    super(actor);
  }
}
