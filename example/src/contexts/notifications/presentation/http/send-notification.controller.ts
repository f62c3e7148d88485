import {
  acceptedSchema,
  Controller,
  controllerRoute,
  type RequestOf,
  type ResponseOf,
  zodSchema,
} from "@kit/http";
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

const route = controllerRoute({
  group: Notifications,
  method: "POST",
  path: "/",
  permissions: [SendNotification],
  summary: "Send a message",
  body: zodSchema(message),
  response: { status: 201, description: "Sent", body: acceptedSchema },
  errors: ["FORBIDDEN"],
});

/** POST /notifications: staff send a message to a person. */
@Controller(route)
export class SendNotificationController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const { recipientId, title, body } = request.body;
    return this.commands.execute(new SendNotification(request.actor, recipientId, title, body));
  }
}
