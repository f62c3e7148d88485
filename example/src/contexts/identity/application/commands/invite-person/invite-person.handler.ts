import { type Clock, Handles, type IdGenerator } from "@kit/kernel";
import { identityErrors } from "../../../domain/identity-errors.ts";
import type { People } from "../../ports/people.ts";
import { InvitePerson } from "./invite-person.command.ts";

/** Runs InvitePerson: one invitation per email and practice (the work's). */
@Handles(InvitePerson)
export class InvitePersonHandler {
  constructor(
    private readonly people: People,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(command: InvitePerson): Promise<{ id: string }> {
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
