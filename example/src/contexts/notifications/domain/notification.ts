/** The kinds of notification a person receives. */
export const notificationKinds = [
  "appointment-booked",
  "appointment-cancelled",
  "appointment-confirmed",
  "appointment-confirmation-request",
  "appointment-rescheduled",
  "appointment-reminder",
  "message",
] as const;

/** One kind of notification. */
export type NotificationKind = typeof notificationKinds[number];

/** Something a person was told. */
export interface Notification {
  readonly id: string;
  readonly recipientId: string;
  readonly kind: NotificationKind;
  readonly title: string;
  readonly body: string;
  readonly relatedId?: string;
  readonly createdAt: Date;
  readonly readAt?: Date;
}

/** How a person likes to be told. */
export interface Preferences {
  readonly email: boolean;
  readonly sms: boolean;
  /** How long before an appointment the reminder goes out. */
  readonly reminderHoursBefore: number;
}

/** The preferences of a person who set none. */
export const defaultPreferences: Preferences = { email: true, sms: false, reminderHoursBefore: 24 };

/** Formats an instant for a person-facing text (UTC, to the minute). */
export function whenText(iso: string): string {
  return `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;
}
