import assert from "node:assert/strict";
import { ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { notificationsModule } from "../../../notifications.module.ts";
import { notificationsPermissions } from "../../../notifications.permissions.ts";
import { GetPreferences } from "./get-preferences.query.ts";

const application = testApplication([notificationsModule], {
  grants: { granted: [notificationsPermissions["notification.read"]] },
});

Deno.test("GetPreferences runs through the query bus", async () => {
  const answer = await application.queries.execute(
    new GetPreferences(userActor("someone", { roles: ["granted"] })),
  );
  assert.ok(answer !== undefined);
});

Deno.test("GetPreferences is refused to an actor without notification.read", async () => {
  await assert.rejects(
    () =>
      application.queries.execute(
        new GetPreferences(userActor("someone-else")),
      ),
    ForbiddenError,
  );
});
