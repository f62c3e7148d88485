import { Handles } from "@kit/kernel";
import { defaultPreferences, type Preferences } from "../../../domain/notification.ts";
import type { NotificationStore } from "../../ports/notification-store.ts";
import { GetPreferences } from "./get-preferences.query.ts";

/** Runs GetPreferences. */
@Handles(GetPreferences)
export class GetPreferencesHandler {
  constructor(private readonly notifications: NotificationStore) {}

  async handle(query: GetPreferences): Promise<Preferences> {
    return (await this.notifications.preferences(query.actor.id)) ?? defaultPreferences;
  }
}
