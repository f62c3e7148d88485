import assert from "node:assert/strict";
import type { ProblemIssue } from "../types.ts";
import { requestAs, tenantApp } from "../testdata/tenant_app.ts";
import { collectUnstorable, maxUnstorableIssues } from "./unstorable_text.ts";

const ann = "ann;t1";

async function issuesOf(response: Response): Promise<ProblemIssue[]> {
  assert.equal(response.status, 422);
  const problem = await response.json();
  assert.equal(problem.code, "VALIDATION_FAILED");
  return problem.errors;
}

function found(value: unknown): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
  collectUnstorable(value, "body", issues);
  return issues;
}

Deno.test("collectUnstorable names every NUL and lone surrogate, in values and keys, by pointer", () => {
  assert.deepEqual(found({ a: "ok", b: ["x", "\u0000"], "c/~d": { "\ud800": "\udc00x" } }), [
    {
      pointer: "/body/b/1",
      detail: "The text holds a NUL character (U+0000), which cannot be stored",
      code: "unstorable_text",
    },
    {
      pointer: "/body/c~1~0d/\ud800",
      detail:
        "The key is not well-formed UTF-16 (it holds a lone surrogate), which cannot be stored",
      code: "unstorable_text",
    },
    {
      pointer: "/body/c~1~0d/\ud800",
      detail:
        "The text is not well-formed UTF-16 (it holds a lone surrogate), which cannot be stored",
      code: "unstorable_text",
    },
  ]);
  assert.deepEqual(found({ emoji: "\ud83d\ude00", n: 1, z: null, t: true, s: "\u00e9" }), []);
  assert.equal(collectUnstorable("\u0000", "query", []), true);
  assert.equal(collectUnstorable(["\ud800\ud800"], "query", []), true);
  assert.equal(collectUnstorable({ q: ["a", "b"] }, "query", []), false);
});

Deno.test("collectUnstorable stops at its cap and walks a deep value without recursion", () => {
  assert.equal(found(Array.from({ length: 1000 }, () => "\u0000")).length, maxUnstorableIssues);
  let deep: unknown = "\u0000";
  for (let i = 0; i < 200_000; i++) deep = [deep];
  const issues = found(deep);
  assert.equal(issues.length, 1);
  assert.equal(issues[0]!.pointer.length, "/body".length + 200_000 * 2);
});

Deno.test("A JSON body with NUL or a lone surrogate answers 422 naming the pointer, and nothing is stored", async () => {
  const http = tenantApp();
  const post = (body: string) => http.fetch(requestAs(ann, "POST", "/calendars", { body }));
  assert.deepEqual(
    (await issuesOf(await post('{"id":"a\\u0000b","name":"x"}'))).map((i) => i.pointer),
    [
      "/body/id",
    ],
  );
  assert.deepEqual(
    (await issuesOf(await post('{"id":"a","name":"\\ud800"}'))).map((i) => i.pointer),
    [
      "/body/name",
    ],
  );
  assert.deepEqual(
    (await issuesOf(await post('{"id":"a","name":"\\udfff!","\\u0000":1}'))).map((i) => i.pointer),
    ["/body/\u0000", "/body/name"],
  );
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/calendars"))).json(), []);
  const emoji = await post('{"id":"a","name":"\\ud83d\\ude00 \\u00e9"}');
  assert.equal(emoji.status, 201, "a surrogate pair and other escapes are text like any");
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/calendars"))).json(), [
    { id: "a", name: "\u{1f600} \u00e9" },
  ]);
});

Deno.test("The other parts' issues come in the same problem as the text's", async () => {
  const http = tenantApp();
  const response = await http.fetch(
    requestAs(ann, "GET", "/calendars/a%00/echo?q=%00&q=b&q=%00&%00=1"),
  );
  assert.deepEqual((await issuesOf(response)).map((i) => i.pointer), [
    "/params/calendarId",
    "/query/\u0000",
    "/query/q/0",
    "/query/q/2",
  ]);
});

Deno.test("A path segment with %00 or %ED%A0%80 (an encoded surrogate) answers 422 naming the parameter", async () => {
  const http = tenantApp();
  const nul = await issuesOf(await http.fetch(requestAs(ann, "GET", "/calendars/a%00b/echo")));
  assert.deepEqual(nul.map((i) => [i.pointer, i.code]), [[
    "/params/calendarId",
    "unstorable_text",
  ]]);
  const surrogate = await issuesOf(
    await http.fetch(requestAs(ann, "GET", "/calendars/%ED%A0%80/echo")),
  );
  assert.deepEqual(surrogate, [{
    pointer: "/params/calendarId",
    detail: "The path segment is not valid percent-encoded UTF-8",
    code: "invalid_encoding",
  }]);
  const secured = await http.fetch(requestAs(ann, "GET", "/secured/%00"));
  assert.deepEqual((await issuesOf(secured)).map((i) => i.pointer), ["/params/name"]);
  const fine = await http.fetch(requestAs(ann, "GET", "/calendars/caf%C3%A9/echo?q=%C3%A9"));
  assert.deepEqual(await fine.json(), { calendarId: "caf\u00e9", q: "\u00e9" });
});

Deno.test("refuseUnstorableText: false lets such text through to the schemas and the handler", async () => {
  const http = tenantApp({ refuseUnstorableText: false });
  const created = await http.fetch(
    requestAs(ann, "POST", "/calendars", { body: '{"id":"a\\u0000","name":"\\ud800"}' }),
  );
  assert.equal(created.status, 201);
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/calendars"))).json(), [
    { id: "a\u0000", name: "\ud800" },
  ]);
  const echoed = await http.fetch(requestAs(ann, "GET", "/calendars/a%00/echo?q=%00"));
  assert.deepEqual(await echoed.json(), { calendarId: "a\u0000", q: "\u0000" });
  const undecodable = await http.fetch(requestAs(ann, "GET", "/calendars/%ED%A0%80/echo"));
  assert.equal(undecodable.status, 422, "a segment that is not UTF-8 is refused either way");
});
