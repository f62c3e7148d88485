import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import type { NotificationKind } from "../../../domain/notification.ts";
import { notificationsPermissions } from "../../../notifications.permissions.ts";

/** Staff send a message to a person. Needs 'notification.send'. */
@Requires(notificationsPermissions["notification.send"])
export class SendNotification extends AuthorizedCommand<{ id: string }> {
  constructor(
    actor: Actor,
    readonly recipientId: string,
    readonly title: string,
    readonly body: string,
    readonly kind: NotificationKind = "message",
    readonly relatedId?: string,
  ) {
    super(actor);
  }
}
