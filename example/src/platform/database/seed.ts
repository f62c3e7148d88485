import { runInScope, userActor, uuidv7 } from "@kit/kernel";
import { OpenCalendar } from "../../contexts/scheduling/application/commands/open-calendar/open-calendar.command.ts";
import { DefineAppointmentType } from "../../contexts/scheduling/application/commands/define-appointment-type/define-appointment-type.command.ts";
import { SetOpeningHours } from "../../contexts/availability/application/commands/set-opening-hours/set-opening-hours.command.ts";
import type { composePlatform } from "../compose-application.ts";

/** The practice (tenant) the dev data belongs to. */
export const seedTenant = "practice-1";

/**
 * Seeds the dev database once: practitioner dr-who's calendar `cal-1` of practice `practice-1`,
 * with a 30-minute check-up, open Monday to Friday 09:00-17:00 UTC. Sent through the buses as
 * dr-who, in work that names the practice, like any request.
 */
export function seedDevData(application: ReturnType<typeof composePlatform>): Promise<void> {
  const drWho = userActor("dr-who", { roles: ["practitioner"], tenants: [seedTenant] });
  const execution = {
    origin: "cli",
    actor: drWho,
    tenantId: seedTenant,
    correlationId: uuidv7(),
  };
  return runInScope({ execution }, async () => {
    const { created } = await application.commands.execute(new OpenCalendar(drWho, "cal-1"));
    if (!created) return;
    await application.commands.execute(
      new DefineAppointmentType(drWho, "cal-1", "checkup", "Check-up", 30),
    );
    await application.commands.execute(
      new SetOpeningHours(
        drWho,
        "cal-1",
        [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opensAt: 9 * 60, closesAt: 17 * 60 })),
      ),
    );
  });
}
