import {
  type Clock,
  type CommandBus,
  type EventPayloadOf,
  HandlesEvent,
  type IdGenerator,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
  systemActor,
} from "@kit/kernel";
import { AppointmentCancelled } from "../../../scheduling/published-language/appointment-cancelled.event.ts";
import { whenText } from "../../domain/notification.ts";
import { PlanReminder } from "../commands/plan-reminder/plan-reminder.command.ts";
import type { NotificationStore } from "../ports/notification-store.ts";
import { tellPatient } from "./tell-patient.ts";

/** Tells the patient their appointment was cancelled and cancels its reminder, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentCancelled, { name: "notifications.scheduling-appointment-cancelled" })
export class SchedulingAppointmentCancelledHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly notifications: NotificationStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly commands: CommandBus,
  ) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentCancelled>>,
  ): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-cancelled",
      event,
      async () => {
        await tellPatient(this.notifications, this.ids, this.clock, {
          patientId: p.patientId,
          appointmentId: p.appointmentId,
          kind: "appointment-cancelled",
          title: "Appointment cancelled",
          body: `Your appointment of ${whenText(p.startsAt)} is cancelled: ${p.reason}.`,
        });
        await this.commands.execute(
          new PlanReminder(systemActor, p.appointmentId, p.patientId, undefined),
        );
      },
    );
  }
}
