import assert from "node:assert/strict";
import type { CorsOptions } from "../types.ts";
import { requestAs, tenantApp } from "../testdata/tenant_app.ts";

const app = "https://app.example";
const evil = "https://evil.example";

function preflight(origin: string | undefined, path = "/calendars", method = "POST"): Request {
  return requestAs(undefined, "OPTIONS", path, {
    headers: {
      ...(origin === undefined ? {} : { origin }),
      "access-control-request-method": method,
      "access-control-request-headers": "authorization, content-type",
    },
  });
}

function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries(
    [...response.headers].filter(([name]) => name.startsWith("access-control-")),
  );
}

Deno.test("Without the cors option nothing is allowed: no CORS header, a preflight answered as before", async () => {
  const http = tenantApp();
  const answer = await http.fetch(preflight(app));
  assert.equal(answer.status, 405);
  assert.equal(answer.headers.get("allow"), "GET, POST");
  assert.deepEqual(corsHeaders(answer), {});
  await answer.body?.cancel();
  const read = await http.fetch(
    requestAs("ann;t1", "GET", "/calendars", { headers: { origin: app } }),
  );
  assert.equal(read.status, 200);
  assert.deepEqual(corsHeaders(read), {});
  assert.equal(read.headers.get("vary"), null);
  await read.body?.cancel();
});

Deno.test("With cors, a preflight from an allowed origin answers 204 with the allow headers", async () => {
  const http = tenantApp({ cors: { origins: [app], credentials: true, maxAge: 600 } });
  const answer = await http.fetch(preflight(app));
  assert.equal(answer.status, 204);
  assert.deepEqual(corsHeaders(answer), {
    "access-control-allow-origin": app,
    "access-control-allow-methods": "GET, POST",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-allow-credentials": "true",
    "access-control-max-age": "600",
  });
  assert.equal(answer.headers.get("vary"), "Origin");
  assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
  const declared = tenantApp({
    cors: { origins: [app], methods: ["GET"], headers: ["x-tenant-id"] },
  });
  assert.deepEqual(corsHeaders(await declared.fetch(preflight(app))), {
    "access-control-allow-origin": app,
    "access-control-allow-methods": "GET",
    "access-control-allow-headers": "x-tenant-id",
  });
});

Deno.test("With cors, a preflight from another origin or without one gets no CORS header; to an unknown path, 404", async () => {
  const http = tenantApp({ cors: { origins: [app] } });
  for (const origin of [evil, undefined, "null"]) {
    const answer = await http.fetch(preflight(origin));
    assert.equal(answer.status, 405, "answered as without CORS");
    assert.deepEqual(corsHeaders(answer), {});
    assert.equal(answer.headers.get("vary"), "Origin");
    await answer.body?.cancel();
  }
  const unknown = await http.fetch(preflight(app, "/nowhere"));
  assert.equal(unknown.status, 404, "a preflight that is not 2xx fails in the browser");
  assert.equal(unknown.headers.get("access-control-allow-methods"), null);
  await unknown.body?.cancel();
});

Deno.test("With cors, answers carry Access-Control-Allow-Origin only for an allowed origin, problems included", async () => {
  const http = tenantApp({
    cors: { origins: [app, "http://localhost:5173"], exposedHeaders: ["location"] },
  });
  const allowed = await http.fetch(
    requestAs("ann;t1", "GET", "/calendars", { headers: { origin: "http://localhost:5173" } }),
  );
  assert.deepEqual(corsHeaders(allowed), {
    "access-control-allow-origin": "http://localhost:5173",
    "access-control-expose-headers": "location",
  });
  assert.equal(allowed.headers.get("vary"), "Origin");
  await allowed.body?.cancel();
  const refused = await http.fetch(
    requestAs(undefined, "GET", "/calendars", { headers: { origin: app } }),
  );
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("access-control-allow-origin"), app);
  await refused.body?.cancel();
  for (const headers of [{ origin: evil }, {} as Record<string, string>]) {
    const other = await http.fetch(requestAs("ann;t1", "GET", "/calendars", { headers }));
    assert.equal(other.status, 200, "CORS is enforced by the browser: the answer is given");
    assert.deepEqual(corsHeaders(other), {});
    assert.equal(other.headers.get("vary"), "Origin", "a cache keeps answers apart by origin");
    await other.body?.cancel();
  }
});

Deno.test("cors with '*' allows every origin without credentials; the options are checked at start-up", async () => {
  const http = tenantApp({ cors: { origins: ["*"] } });
  const answer = await http.fetch(preflight(evil));
  assert.equal(answer.headers.get("access-control-allow-origin"), "*");
  assert.equal(answer.headers.get("access-control-allow-credentials"), null);
  const read = await http.fetch(
    requestAs("ann;t1", "GET", "/calendars", { headers: { origin: evil } }),
  );
  assert.equal(read.headers.get("access-control-allow-origin"), "*");
  await read.body?.cancel();
  const refused: [CorsOptions, RegExp][] = [
    [{ origins: ["*"], credentials: true }, /credentials cannot be allowed to every origin/],
    [{ origins: ["*", app] }, /'\*' stands alone/],
    [{ origins: [] }, /at least one origin/],
    [{ origins: ["https://app.example/"] }, /"https:\/\/app.example\/" is not an origin/],
    [{ origins: ["null"] }, /"null" is not an origin/],
    [{ origins: ["HTTPS://APP.EXAMPLE"] }, /is not an origin/],
    [{ origins: ["ftp://app.example"] }, /is not an origin/],
    [{ origins: [app], headers: ["x tenant"] }, /cors.headers: "x tenant" is not a header/],
    [{ origins: [app], maxAge: -1 }, /maxAge must be a whole number of seconds/],
  ];
  for (const [cors, message] of refused) assert.throws(() => tenantApp({ cors }), message);
});
