import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import type { Preferences } from "../../../domain/notification.ts";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/** The sender's notification preferences (the defaults until they set some). */
@Requires(notificationsPermissions["notification.read"])
export class GetPreferences extends AuthorizedQuery<Preferences> {
  constructor(actor: Actor) {
    super(actor);
  }
}
