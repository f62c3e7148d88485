import { defineModule, type Module } from "@kit/kernel";
import { Database } from "../../platform/database/database.ts";
import { EmailSender } from "./application/ports/email-sender.ts";
import { NotificationStore } from "./application/ports/notification-store.ts";
import { PostgresNotifications } from "./infrastructure/postgres-notifications.ts";
import { RecordedEmails } from "./infrastructure/recorded-emails.ts";
import { notificationsDeclarations } from "./notifications.declarations.ts";
import { notificationsDependencies } from "./notifications.dependencies.ts";

/**
 * The module of the notifications context: its declarations, its store on PostgreSQL, and its
 * email sender (the example's stand-in, `RecordedEmails`: replace it with a provider's adapter).
 */
export const notificationsModule: Module = defineModule("notifications", {
  declarations: notificationsDeclarations,
  dependencies: notificationsDependencies,
  providers: [
    {
      provide: NotificationStore,
      provider: { useClass: PostgresNotifications, deps: [Database] },
    },
    { provide: EmailSender, provider: { useClass: RecordedEmails, deps: [] } },
  ],
});
