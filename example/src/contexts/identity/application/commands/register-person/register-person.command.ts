import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { identityPermissions } from "../../../identity.permissions.ts";

/** The sender registers their profile (name, email). Needs 'person.register'. */
@Requires(identityPermissions["person.register"])
export class RegisterPerson extends AuthorizedCommand<{ id: string }> {
  constructor(actor: Actor, readonly name: string, readonly email: string) {
    super(actor);
  }
}
