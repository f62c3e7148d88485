import assert from "node:assert/strict";
import { headerRecord, parseQuery } from "./request_parts.ts";

function viaSearchParams(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  }
  return out;
}

Deno.test("parseQuery() reads every query as URLSearchParams does", () => {
  const queries = [
    "",
    "notify=yes",
    "a=1&b=2&a=3&a=4",
    "a&b=&=c&&d==e&",
    "&&&",
    "a=%20b&c=d+e",
    "name=J%C3%BCrgen&bad=%E0%A4%A",
    "x=1;y=2",
    "a=b=c",
  ];
  for (const query of queries) assert.deepEqual(parseQuery(query), viaSearchParams(query), query);
});

Deno.test("parseQuery() reads every short query of '&', '=' and two names as URLSearchParams does", () => {
  // Every query of up to 6 characters from this alphabet: the split without URLSearchParams.
  const alphabet = ["a", "b", "=", "&"];
  let queries = [""];
  for (let length = 1; length <= 6; length++) {
    queries = queries.flatMap((query) => alphabet.map((char) => query + char));
    for (const query of queries) {
      assert.deepEqual(parseQuery(query), viaSearchParams(query), query);
    }
  }
});

Deno.test("headerRecord() builds what Object.fromEntries(headers) builds", () => {
  const headers = new Headers([
    ["Content-Type", "application/json"],
    ["X-Many", "a"],
    ["x-many", "b"],
    ["set-cookie", "a=1"],
    ["set-cookie", "b=2"],
    ["__proto__", "p"],
  ]);
  const record = headerRecord(headers);
  assert.deepEqual(record, Object.fromEntries(headers));
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.deepEqual(Object.keys(record), Object.keys(Object.fromEntries(headers)));
});

Deno.test("headerRecord() given the keys a schema reads answers those of them Object.fromEntries has", () => {
  const headers = new Headers([
    ["X-Request-Source", "bench"],
    ["x-many", "a"],
    ["x-many", "b"],
    ["accept", "*/*"],
  ]);
  const all = Object.fromEntries(headers);
  const some = headerRecord(headers, ["x-request-source", "x-many", "x-absent"]);
  assert.deepEqual(some, { "x-request-source": all["x-request-source"], "x-many": all["x-many"] });
  assert.equal("x-absent" in some, false);
  // A key fromEntries never has (upper case), or one get() answers differently: every header.
  assert.deepEqual(headerRecord(headers, ["X-Request-Source"]), all);
  assert.deepEqual(headerRecord(headers, ["set-cookie"]), all);
});

Deno.test("parseQuery() keeps __proto__ and inherited names as own keys, never the prototype", () => {
  for (const query of ["__proto__=a&__proto__=b&length=1", "__proto__=%61&__proto__=b&length=1"]) {
    const record = parseQuery(query);
    assert.equal(Object.getPrototypeOf(record), Object.prototype, query);
    assert.deepEqual(Object.getOwnPropertyDescriptor(record, "__proto__")?.value, ["a", "b"]);
    assert.equal(record.length, "1");
    assert.deepEqual(Object.keys(record), ["__proto__", "length"]);
  }
  assert.equal(parseQuery("toString=x").toString, "x");
  assert.deepEqual(parseQuery("constructor=1&constructor=2").constructor, ["1", "2"]);
});
