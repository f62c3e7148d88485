import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/** SendNotification: what the actor asks of the notifications context; needs 'notification.send'. */
@Requires(notificationsPermissions["notification.send"])
export class SendNotification extends AuthorizedCommand<void> {
  constructor(actor: Actor) {
    super(actor);
  }
}
