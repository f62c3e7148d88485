import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule } from "@kit/kernel";
import { Controller, httpPlugin, Public, zodSchema } from "../mod.ts";
import { negotiate } from "./negotiate.ts";

@Controller({
  method: "GET",
  path: "/practices/:practiceId/opening-hours",
  guards: [Public],
  response: { status: 200, body: zodSchema(z.object({ hours: z.string() }), { io: "output" }) },
  produces: ["application/json"],
})
class OpeningHours {
  handle(): { hours: string } {
    return { hours: "9-17" };
  }
}

function app() {
  return composeApplication({
    modules: [defineModule("negotiation", { declarations: [OpeningHours] })],
    plugins: { http: httpPlugin() },
  }).http;
}

Deno.test("negotiate picks by quality and specificity and refuses q=0", () => {
  assert.equal(negotiate(null, ["application/json"]), "application/json");
  assert.equal(
    negotiate("text/csv;q=0.5, application/json", ["text/csv", "application/json"]),
    "application/json",
  );
  assert.equal(negotiate("text/*", ["application/json", "text/csv"]), "text/csv");
  assert.equal(
    negotiate("*/*;q=0.1, text/csv;q=0.9", ["application/json", "text/csv"]),
    "text/csv",
  );
  assert.equal(negotiate("application/json;q=0", ["application/json"]), undefined);
  assert.equal(negotiate("image/png", ["application/json"]), undefined);
});

Deno.test("A route answers 406 NOT_ACCEPTABLE when nothing it produces is acceptable", async () => {
  const response = await app().fetch(
    new Request("http://api.test/practices/p1/opening-hours", { headers: { accept: "text/html" } }),
  );
  assert.equal(response.status, 406);
  assert.equal((await response.json()).code, "NOT_ACCEPTABLE");
});
