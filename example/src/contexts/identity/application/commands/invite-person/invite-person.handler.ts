import { type Clock, ConceptError, Handles, type IdGenerator } from "@kit/kernel";
import type { People } from "../../ports/people.ts";
import { workTenant } from "../../work-tenant.ts";
import { InvitePerson } from "./invite-person.command.ts";

/** Runs InvitePerson: one invitation per email and practice. */
@Handles(InvitePerson)
export class InvitePersonHandler {
  constructor(
    private readonly people: People,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(command: InvitePerson): Promise<{ id: string }> {
    const id = this.ids.next();
    const tenantId = workTenant();
    const invited = await this.people.invite({
      id,
      ...(tenantId === undefined ? {} : { tenantId }),
      email: command.email.toLowerCase(),
      role: command.role,
      invitedBy: command.actor.id,
      invitedAt: this.clock.now(),
    });
    if (!invited) {
      throw ConceptError.conflict("ALREADY_INVITED", `${command.email} is invited already`);
    }
    return { id };
  }
}
