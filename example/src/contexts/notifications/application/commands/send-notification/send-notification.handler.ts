import { type Clock, Handles, type IdGenerator } from "@kit/kernel";
import type { NotificationStore } from "../../ports/notification-store.ts";
import { SendNotification } from "./send-notification.command.ts";

/** Runs SendNotification. */
@Handles(SendNotification)
export class SendNotificationHandler {
  constructor(
    private readonly notifications: NotificationStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(command: SendNotification): Promise<{ id: string }> {
    const id = this.ids.next();
    await this.notifications.add({
      id,
      recipientId: command.recipientId,
      kind: command.kind,
      ...(command.relatedId === undefined ? {} : { relatedId: command.relatedId }),
      title: command.title,
      body: command.body,
      createdAt: this.clock.now(),
    });
    return { id };
  }
}
