import assert from "node:assert/strict";
import { pathOf, queryOf } from "./request_path.ts";

Deno.test("pathOf() is the URL's path without its query and fragment", () => {
  assert.equal(pathOf("http://api.test/calendars/c1"), "/calendars/c1");
  assert.equal(pathOf("http://api.test/calendars?page=2#top"), "/calendars");
  assert.equal(pathOf("http://api.test/calendars#top?page=2"), "/calendars");
  assert.equal(pathOf("http://user:pw@api.test:8000/a/b%20c/"), "/a/b%20c/");
  assert.equal(pathOf("http://api.test"), "/");
  assert.equal(pathOf(new Request("http://api.test").url), "/");
});

Deno.test("queryOf() is the URL's query without `?` and fragment; a `?` in the fragment is none", () => {
  assert.equal(queryOf("http://api.test/calendars?page=2&size=10"), "page=2&size=10");
  assert.equal(queryOf("http://api.test/calendars?page=2#top"), "page=2");
  assert.equal(queryOf("http://api.test/calendars#top?page=2"), "");
  assert.equal(queryOf("http://api.test/calendars?"), "");
  assert.equal(queryOf("http://api.test/calendars"), "");
});
