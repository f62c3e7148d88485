import assert from "node:assert/strict";
import { ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { notificationsModule } from "../../../notifications.module.ts";
import { notificationsPermissions } from "../../../notifications.permissions.ts";
import { SendNotification } from "./send-notification.command.ts";

const application = testApplication([notificationsModule], {
  grants: { granted: [notificationsPermissions["notification.send"]] },
});

Deno.test("SendNotification runs through the command bus", async () => {
  const answer = await application.commands.execute(
    new SendNotification(userActor("someone", { roles: ["granted"] })),
  );
  assert.ok(answer === undefined);
});

Deno.test("SendNotification is refused to an actor without notification.send", async () => {
  await assert.rejects(
    () =>
      application.commands.execute(
        new SendNotification(userActor("someone-else")),
      ),
    ForbiddenError,
  );
});
