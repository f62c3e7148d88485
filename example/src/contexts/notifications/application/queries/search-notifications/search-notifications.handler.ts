import { Handles } from "@kit/kernel";
import type { NotificationStore } from "../../ports/notification-store.ts";
import {
  SearchNotifications,
  type SearchNotificationsResult,
} from "./search-notifications.query.ts";

/** Runs SearchNotifications: only ever the sender's own notifications. */
@Handles(SearchNotifications)
export class SearchNotificationsHandler {
  constructor(private readonly notifications: NotificationStore) {}

  async handle(query: SearchNotifications): Promise<SearchNotificationsResult> {
    const { page, pageSize } = query.filters;
    const found = await this.notifications.search({
      recipientId: query.actor.id,
      ...query.filters,
    });
    return { ...found, page, pageSize };
  }
}
