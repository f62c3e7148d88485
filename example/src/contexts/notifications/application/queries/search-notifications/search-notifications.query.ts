import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/** One page of SearchNotifications. */
export interface SearchNotificationsResult {
  readonly items: readonly { readonly id: string }[];
  readonly total: number;
}

/** SearchNotifications: what the actor asks of the notifications context; needs 'notification.read'. */
@Requires(notificationsPermissions["notification.read"])
export class SearchNotifications extends AuthorizedQuery<SearchNotificationsResult> {
  constructor(actor: Actor, readonly page = 1, readonly pageSize = 20) {
    super(actor);
  }
}
