import { defineModule, type Module } from "@kit/kernel";
import { Database } from "../../platform/database/database.ts";
import { NotificationStore } from "./application/ports/notification-store.ts";
import { PostgresNotifications } from "./infrastructure/postgres-notifications.ts";
import { notificationsDeclarations } from "./notifications.declarations.ts";
import { notificationsDependencies } from "./notifications.dependencies.ts";

/** The module of the notifications context: its declarations, and its store on PostgreSQL. */
export const notificationsModule: Module = defineModule("notifications", {
  declarations: notificationsDeclarations,
  dependencies: notificationsDependencies,
  providers: [
    {
      provide: NotificationStore,
      provider: { useClass: PostgresNotifications, deps: [Database] },
    },
  ],
});
