import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { identityPermissions } from "../../../identity.permissions.ts";

/** RegisterPerson: what the actor asks of the identity context; needs 'person.register'. */
@Requires(identityPermissions["person.register"])
export class RegisterPerson extends AuthorizedCommand<void> {
  constructor(actor: Actor) {
    super(actor);
  }
}
