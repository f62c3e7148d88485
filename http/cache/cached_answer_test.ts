import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule } from "@kit/kernel";
import { Controller, httpPlugin, type HttpRequest, Public, zodSchema } from "../mod.ts";

let version = 1;

@Controller({
  method: "GET",
  path: "/practices/:practiceId/opening-hours",
  guards: [Public],
  params: zodSchema(z.object({ practiceId: z.string() })),
  response: { status: 200, body: zodSchema(z.object({ hours: z.string() }), { io: "output" }) },
  produces: ["application/json"],
  cache: {
    maxAge: 60,
    scope: "public",
    etag: true,
    tags: (params) => [`practice:${params.practiceId}`, "hours"],
  },
})
class OpeningHours {
  handle(request: HttpRequest<{ params: { practiceId: string } }>): { hours: string } {
    return { hours: `${request.params.practiceId} v${version}: 9-17` };
  }
}

function app() {
  return composeApplication({
    modules: [defineModule("cache", { declarations: [OpeningHours] })],
    plugins: { http: httpPlugin() },
  }).http;
}

Deno.test("A cached route sends Cache-Control, an ETag and cache tags, and answers 304 to a matching If-None-Match", async () => {
  const http = app();
  version = 1;
  const first = await http.fetch(new Request("http://api.test/practices/p1/opening-hours"));
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("cache-control"), "public, max-age=60");
  assert.equal(first.headers.get("cache-tag"), "practice:p1,hours");
  const etag = first.headers.get("etag");
  assert.match(etag ?? "", /^"[A-Za-z0-9_-]{16}"$/);
  assert.deepEqual(await first.json(), { hours: "p1 v1: 9-17" });
  const again = await http.fetch(
    new Request("http://api.test/practices/p1/opening-hours", {
      headers: { "if-none-match": `W/${etag}` },
    }),
  );
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("etag"), etag);
  assert.equal(await again.text(), "");
  version = 2;
  const changed = await http.fetch(
    new Request("http://api.test/practices/p1/opening-hours", {
      headers: { "if-none-match": etag! },
    }),
  );
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get("etag"), etag);
});
