import type { Clock, IdGenerator } from "@kit/kernel";
import type { NotificationKind } from "../../domain/notification.ts";
import type { NotificationStore } from "../ports/notification-store.ts";

/** What the appointment reactions tell a patient. */
export interface PatientNotice {
  readonly patientId: string;
  readonly appointmentId: string;
  readonly kind: NotificationKind;
  readonly title: string;
  readonly body: string;
}

/** Stores a notification about an appointment for its patient, at the clock's time. */
export function tellPatient(
  notifications: NotificationStore,
  ids: IdGenerator,
  clock: Clock,
  notice: PatientNotice,
): Promise<void> {
  return notifications.add({
    id: ids.next(),
    recipientId: notice.patientId,
    kind: notice.kind,
    title: notice.title,
    body: notice.body,
    relatedId: notice.appointmentId,
    createdAt: clock.now(),
  });
}
