import { type Token, token } from "@kit/kernel";
import type { Notification, NotificationKind, Preferences } from "../../domain/notification.ts";

/** What a search of notifications asks: the recipient's, filtered, one page. */
export interface NotificationSearch {
  readonly recipientId: string;
  readonly kind?: NotificationKind;
  readonly unread?: boolean;
  readonly page: number;
  readonly pageSize: number;
}

/** Where notifications and preferences are kept. */
export interface NotificationStore {
  /** Stores a notification. */
  add(notification: Notification): Promise<void>;
  /** One page of the recipient's notifications, newest first, and how many match in all. */
  search(search: NotificationSearch): Promise<{ items: Notification[]; total: number }>;
  /** The person's preferences, or undefined when they set none. */
  preferences(personId: string): Promise<Preferences | undefined>;
  /** The reminder job planned for an appointment, if any. */
  reminderOf(appointmentId: string): Promise<string | undefined>;
  /** Records (or replaces) the reminder job of an appointment; undefined forgets it. */
  setReminder(appointmentId: string, jobId: string | undefined): Promise<void>;
  /**
   * Records that the reminder of an appointment at a start was sent, in the work's unit of work;
   * answers false when it was recorded already (the idempotency record of the reminder job). A
   * second record of the same reminder waits for the first's transaction to end.
   */
  recordReminderSent(appointmentId: string, startsAt: string, at: Date): Promise<boolean>;
  /** Records that the patient confirmed the appointment for a start (again: nothing changes). */
  recordConfirmed(appointmentId: string, startsAt: string): Promise<void>;
  /** Whether the patient confirmed the appointment for that start. */
  isConfirmed(appointmentId: string, startsAt: string): Promise<boolean>;
  /** Stores the person's preferences. */
  savePreferences(personId: string, preferences: Preferences): Promise<void>;
}

/** The token of {@linkcode NotificationStore}. */
export const NotificationStore: Token<NotificationStore> = token<NotificationStore>(
  "notifications.NotificationStore",
);
