import assert from "node:assert/strict";
import { ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { identityModule } from "../../../identity.module.ts";
import { identityPermissions } from "../../../identity.permissions.ts";
import { RegisterPerson } from "./register-person.command.ts";

const application = testApplication([identityModule], {
  grants: { granted: [identityPermissions["person.register"]] },
});

Deno.test("RegisterPerson runs through the command bus", async () => {
  const answer = await application.commands.execute(
    new RegisterPerson(userActor("someone", { roles: ["granted"] })),
  );
  assert.ok(answer === undefined);
});

Deno.test("RegisterPerson is refused to an actor without person.register", async () => {
  await assert.rejects(
    () =>
      application.commands.execute(
        new RegisterPerson(userActor("someone-else")),
      ),
    ForbiddenError,
  );
});
