// kit:begin route setup
import assert from "node:assert/strict";
import { validatingFetch } from "@kit/http/testing";
import { testApplication, testToken } from "../../../../platform/platform-test.module.ts";
import { $camel$Module } from "../../$context$.module.ts";
$permissionsImport$
// The role "granted" holds every permission of the context.
const application = testApplication([$camel$Module], {
  grants: { granted: $granted$ },
});
// Every answer is checked against the OpenAPI document: an undocumented status or body fails.
const fetch = validatingFetch(application.http.fetch, () => application.http.openapi());

/** Calls the route, with a valid request, as the caller of `token` (none: without a token). */
function call(token?: string): Promise<Response> {
  return fetch(
    new Request("http://api.test$url$", {
      method: "$method$",
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),$contentType$
      },$body$
    }),
  );
}$success$
// kit:end

Deno.test("$title$ answers $answers$ to a caller of one tenant$withPermission$", async () => {
  const response = await call(await testToken({ sub: "someone", roles: ["granted"], tenants: ["t1"] }));
  $successCheck$
  await response.body?.cancel();
});

Deno.test("$title$ answers 401 to a caller without a token", async () => {
  const response = await call();
  assert.equal(response.status, 401);
  await response.body?.cancel();
});
$forbiddenTest$