import { type Clock, ConceptError, type EventPublisher, Handles } from "@kit/kernel";
import { PersonRegistered } from "../../../published-language/person-registered.event.ts";
import type { People } from "../../ports/people.ts";
import { workTenant } from "../../work-tenant.ts";
import { RegisterPerson } from "./register-person.command.ts";

/** Runs RegisterPerson; publishes PersonRegistered. */
@Handles(RegisterPerson)
export class RegisterPersonHandler {
  constructor(
    private readonly people: People,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
  ) {}

  async handle(command: RegisterPerson): Promise<{ id: string }> {
    const tenantId = workTenant();
    const registeredAt = this.clock.now();
    const registered = await this.people.register({
      id: command.actor.id,
      ...(tenantId === undefined ? {} : { tenantId }),
      name: command.name,
      email: command.email,
      registeredAt,
    });
    if (!registered) {
      throw ConceptError.conflict("PERSON_REGISTERED", "You are registered already");
    }
    await this.events.publish(PersonRegistered, {
      personId: command.actor.id,
      ...(tenantId === undefined ? {} : { tenantId }),
      registeredAt: registeredAt.toISOString(),
    });
    return { id: command.actor.id };
  }
}
