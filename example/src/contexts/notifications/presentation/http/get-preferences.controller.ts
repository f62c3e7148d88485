import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { GetPreferences } from "../../application/queries/get-preferences/get-preferences.query.ts";
import { Notifications } from "./notifications.routes.ts";

const preferences = z.object({
  email: z.boolean(),
  sms: z.boolean(),
  reminderHoursBefore: z.int(),
});

const route = controllerRoute({
  group: Notifications,
  method: "GET",
  path: "/preferences",
  permissions: [GetPreferences],
  summary: "My notification preferences",
  response: {
    status: 200,
    description: "The preferences",
    body: zodSchema(preferences, { io: "output" }),
  },
  errors: ["FORBIDDEN"],
});

/** GET /notifications/preferences: how the caller likes to be told. */
@Controller(route)
export class GetPreferencesController {
  constructor(private readonly queries: QueryBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.queries.execute(new GetPreferences(request.actor));
  }
}
