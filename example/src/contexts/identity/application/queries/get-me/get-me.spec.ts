import assert from "node:assert/strict";
import { ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { identityModule } from "../../../identity.module.ts";
import { identityPermissions } from "../../../identity.permissions.ts";
import { GetMe } from "./get-me.query.ts";

const application = testApplication([identityModule], {
  grants: { granted: [identityPermissions["person.read-self"]] },
});

Deno.test("GetMe runs through the query bus", async () => {
  const answer = await application.queries.execute(
    new GetMe(userActor("someone", { roles: ["granted"] })),
  );
  assert.ok(answer !== undefined);
});

Deno.test("GetMe is refused to an actor without person.read-self", async () => {
  await assert.rejects(
    () => application.queries.execute(new GetMe(userActor("someone-else"))),
    ForbiddenError,
  );
});
