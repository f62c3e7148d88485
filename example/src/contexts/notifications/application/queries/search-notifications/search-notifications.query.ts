import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import type { Notification, NotificationKind } from "../../../domain/notification.ts";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/** One page of SearchNotifications. */
export interface SearchNotificationsResult {
  readonly items: readonly Notification[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}

/** The filters of a search. */
export interface NotificationFilters {
  readonly kind?: NotificationKind;
  readonly unread?: boolean;
  readonly page: number;
  readonly pageSize: number;
}

/** The sender's notifications, newest first, filtered and paged. Needs 'notification.read'. */
@Requires(notificationsPermissions["notification.read"])
export class SearchNotifications extends AuthorizedQuery<SearchNotificationsResult> {
  constructor(actor: Actor, readonly filters: NotificationFilters) {
    super(actor);
  }
}
