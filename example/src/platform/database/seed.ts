import { runInScope, userActor, uuidv7 } from "@kit/kernel";
import { OpenCalendar } from "../../contexts/scheduling/application/commands/open-calendar/open-calendar.command.ts";
import { DefineAppointmentType } from "../../contexts/scheduling/application/commands/define-appointment-type/define-appointment-type.command.ts";
import { SetOpeningHours } from "../../contexts/availability/application/commands/set-opening-hours/set-opening-hours.command.ts";
import type { composePlatform } from "../compose-application.ts";

/** One practice (tenant) of the dev data: its practitioner's calendar. */
export interface SeededPractice {
  readonly tenant: string;
  readonly practitioner: string;
  readonly calendarId: string;
}

/** The practice most dev data belongs to. */
export const seedTenant = "practice-1";

/**
 * The dev data: two practices, so that isolation can be tried by hand. Each has its
 * practitioner's calendar with a 30-minute check-up (`checkup`), open Monday to Friday
 * 09:00-17:00 UTC.
 */
export const seededPractices: readonly SeededPractice[] = [
  { tenant: seedTenant, practitioner: "dr-who", calendarId: "cal-1" },
  { tenant: "practice-2", practitioner: "dr-no", calendarId: "cal-2" },
];

/**
 * Seeds the dev database once per practice ({@linkcode seededPractices}). Sent through the buses
 * as each practitioner, in work that names the practice, like any request.
 */
export async function seedDevData(
  application: ReturnType<typeof composePlatform>,
): Promise<void> {
  for (const practice of seededPractices) {
    const practitioner = userActor(practice.practitioner, {
      roles: ["practitioner"],
      tenants: [practice.tenant],
    });
    const execution = {
      origin: "cli",
      actor: practitioner,
      tenantId: practice.tenant,
      correlationId: uuidv7(),
    };
    await runInScope({ execution }, async () => {
      const { created } = await application.commands.execute(
        new OpenCalendar(practitioner, practice.calendarId),
      );
      if (!created) return;
      await application.commands.execute(
        new DefineAppointmentType(practitioner, practice.calendarId, "checkup", "Check-up", 30),
      );
      await application.commands.execute(
        new SetOpeningHours(
          practitioner,
          practice.calendarId,
          [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opensAt: 9 * 60, closesAt: 17 * 60 })),
        ),
      );
    });
  }
}

/** The next weekday (Monday to Friday) at 10:00 UTC at least a day after `now`: bookable. */
export function nextWeekdayAtTen(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  day.setUTCHours(10);
  return day;
}
