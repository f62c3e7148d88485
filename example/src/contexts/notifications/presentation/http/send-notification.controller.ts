import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema, textSchema } from "../../../../shared-kernel/schemas.ts";
import { SendNotification } from "../../application/commands/send-notification/send-notification.command.ts";
import { Notifications } from "./notifications.routes.ts";

const message = z.object({
  recipientId: idSchema(),
  title: textSchema(120),
  body: textSchema(2000),
});

/** POST /notifications: staff send a message to a person. */
@Controller({
  group: Notifications,
  method: "POST",
  path: "/",
  permissions: [SendNotification],
  summary: "Send a message",
  body: zodSchema(message),
  response: { status: 201, description: "Sent", body: acceptedSchema },
  errors: ["FORBIDDEN"],
})
export class SendNotificationController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: HttpRequest<{ body: z.output<typeof message> }>): Promise<{ id: string }> {
    const { recipientId, title, body } = request.body;
    return this.commands.execute(new SendNotification(request.actor, recipientId, title, body));
  }
}
