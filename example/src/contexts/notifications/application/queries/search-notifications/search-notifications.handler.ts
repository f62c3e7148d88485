import { Handles } from "@kit/kernel";
import {
  SearchNotifications,
  type SearchNotificationsResult,
} from "./search-notifications.query.ts";

/** Runs SearchNotifications. */
@Handles(SearchNotifications)
export class SearchNotificationsHandler {
  handle(_query: SearchNotifications): Promise<SearchNotificationsResult> {
    // TODO(domain): read what the query asks.
    return Promise.resolve({ items: [], total: 0 });
  }
}
