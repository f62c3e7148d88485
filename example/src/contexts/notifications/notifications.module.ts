import { defineModule, type Module } from "@kit/kernel";
import { notificationsDeclarations } from "./notifications.declarations.ts";
import { notificationsDependencies } from "./notifications.dependencies.ts";

/** The module of the notifications context. */
export const notificationsModule: Module = defineModule("notifications", {
  declarations: notificationsDeclarations,
  dependencies: notificationsDependencies,
});
