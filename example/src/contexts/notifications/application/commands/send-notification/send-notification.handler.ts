import { Handles } from "@kit/kernel";
import { SendNotification } from "./send-notification.command.ts";

/** Runs SendNotification. */
@Handles(SendNotification)
export class SendNotificationHandler {
  handle(_command: SendNotification): Promise<void> {
    // TODO(domain): load the aggregate, let it decide, save it.
    return Promise.resolve();
  }
}
