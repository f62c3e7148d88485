import { type Clock, ForbiddenError, Handles, type IdGenerator } from "@kit/kernel";
import { mayGrant } from "../../../domain/role-grants.ts";
import { identityErrors } from "../../../domain/identity-errors.ts";
import type { People } from "../../ports/people.ts";
import { InvitePerson } from "./invite-person.command.ts";

/**
 * Runs InvitePerson: one invitation per email and practice (the work's), in a role no higher than
 * the inviter's own (a receptionist never makes a practitioner).
 */
@Handles(InvitePerson)
export class InvitePersonHandler {
  constructor(
    private readonly people: People,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(command: InvitePerson): Promise<{ id: string }> {
    const actor = command.actor;
    if (actor.kind === "user" && !mayGrant(actor.roles, command.role)) {
      throw new ForbiddenError(`The caller's roles grant no '${command.role}'`);
    }
    const id = this.ids.next();
    const invited = await this.people.invite({
      id,
      email: command.email.toLowerCase(),
      role: command.role,
      invitedBy: command.actor.id,
      invitedAt: this.clock.now(),
    });
    if (!invited) {
      throw identityErrors.ALREADY_INVITED.error(`${command.email} is invited already`);
    }
    return { id };
  }
}
