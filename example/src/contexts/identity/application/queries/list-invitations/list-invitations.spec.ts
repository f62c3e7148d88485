import assert from "node:assert/strict";
import { ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { identityModule } from "../../../identity.module.ts";
import { identityPermissions } from "../../../identity.permissions.ts";
import { ListInvitations } from "./list-invitations.query.ts";

const application = testApplication([identityModule], {
  grants: { granted: [identityPermissions["person.invite"]] },
});

Deno.test("ListInvitations runs through the query bus", async () => {
  const answer = await application.queries.execute(
    new ListInvitations(userActor("someone", { roles: ["granted"] })),
  );
  assert.ok(answer !== undefined);
});

Deno.test("ListInvitations is refused to an actor without person.invite", async () => {
  await assert.rejects(
    () =>
      application.queries.execute(
        new ListInvitations(userActor("someone-else")),
      ),
    ForbiddenError,
  );
});
