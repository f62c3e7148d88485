import { type Clock, type EventPublisher, Handles, requireTenant } from "@kit/kernel";
import { PersonRegistered } from "../../../published-language/person-registered.event.ts";
import { identityErrors } from "../../../domain/identity-errors.ts";
import type { People } from "../../ports/people.ts";
import { RegisterPerson } from "./register-person.command.ts";

/** Runs RegisterPerson in the work's practice; publishes PersonRegistered. */
@Handles(RegisterPerson)
export class RegisterPersonHandler {
  constructor(
    private readonly people: People,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
  ) {}

  async handle(command: RegisterPerson): Promise<{ id: string }> {
    const tenantId = requireTenant();
    const registeredAt = this.clock.now();
    const registered = await this.people.register({
      id: command.actor.id,
      name: command.name,
      email: command.email,
      registeredAt,
    });
    if (!registered) {
      throw identityErrors.PERSON_REGISTERED.error("You are registered already");
    }
    await this.events.publish(PersonRegistered, {
      personId: command.actor.id,
      tenantId,
      registeredAt: registeredAt.toISOString(),
    });
    return { id: command.actor.id };
  }
}
