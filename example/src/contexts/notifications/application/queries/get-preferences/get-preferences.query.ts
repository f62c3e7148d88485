import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/** What GetPreferences answers. */
export interface GetPreferencesResult {
  readonly id: string;
}

/** GetPreferences: what the actor asks of the notifications context; needs 'notification.read'. */
@Requires(notificationsPermissions["notification.read"])
export class GetPreferences extends AuthorizedQuery<GetPreferencesResult> {
  constructor(actor: Actor) {
    super(actor);
  }
}
