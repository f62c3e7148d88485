import assert from "node:assert/strict";
import { Router } from "./router.ts";

function router(): Router<string> {
  const routes = new Router<string>();
  routes.add("GET", "/calendars", "list");
  routes.add("POST", "/calendars", "create");
  routes.add("GET", "/calendars/:calendarId", "read");
  routes.add("DELETE", "/calendars/:calendarId", "remove");
  routes.add("GET", "/calendars/today", "today");
  routes.add("GET", "/calendars/:calendarId/slots/:slotId", "slot");
  return routes;
}

Deno.test("match() answers the route of the method and path, with its parameters decoded", () => {
  const routes = router();
  assert.deepEqual(routes.match("GET", "/calendars"), { value: "list", params: {} });
  assert.deepEqual(routes.match("POST", "/calendars"), { value: "create", params: {} });
  assert.deepEqual(routes.match("GET", "/calendars/c1/slots/s%202"), {
    value: "slot",
    params: { calendarId: "c1", slotId: "s 2" },
  });
  assert.deepEqual(routes.match("GET", "/calendars/caf%C3%A9"), {
    value: "read",
    params: { calendarId: "café" },
  });
});

Deno.test("match() prefers a static segment to a parameter, and skips empty segments", () => {
  const routes = router();
  assert.deepEqual(routes.match("GET", "/calendars/today"), { value: "today", params: {} });
  assert.deepEqual(routes.match("GET", "/calendars/tomorrow"), {
    value: "read",
    params: { calendarId: "tomorrow" },
  });
  assert.deepEqual(routes.match("GET", "//calendars//c1/"), {
    value: "read",
    params: { calendarId: "c1" },
  });
});

Deno.test("match() answers HEAD with the GET route when the path has no HEAD route", () => {
  assert.deepEqual(router().match("HEAD", "/calendars/c1"), {
    value: "read",
    params: { calendarId: "c1" },
  });
});

Deno.test("match() names the methods and template of a path that has no route of the method", () => {
  const routes = router();
  assert.deepEqual(routes.match("PUT", "/calendars/c1"), {
    allowed: ["DELETE", "GET"],
    template: "/calendars/:calendarId",
  });
  assert.deepEqual(routes.match("", "/calendars"), {
    allowed: ["GET", "POST"],
    template: "/calendars",
  });
});

Deno.test("match() answers nothing for an unknown path or one that only leads to routes", () => {
  const routes = router();
  assert.equal(routes.match("GET", "/patients"), undefined);
  assert.equal(routes.match("GET", "/calendars/c1/slots"), undefined);
  assert.equal(routes.match("GET", "/calendars/c1/slots/s1/extra"), undefined);
  assert.equal(routes.match("GET", "/"), undefined);
});

Deno.test("match() keeps a segment that is not percent-encoded UTF-8 as sent and names its parameter", () => {
  assert.deepEqual(router().match("GET", "/calendars/%ED%A0%80/slots/%E0%A4%A"), {
    value: "slot",
    params: { calendarId: "%ED%A0%80", slotId: "%E0%A4%A" },
    undecodable: ["calendarId", "slotId"],
  });
});

Deno.test("add() refuses a route declared twice", () => {
  const routes = router();
  assert.throws(
    () => routes.add("GET", "/calendars/:calendarId", "again"),
    { message: "Route 'GET /calendars/:calendarId' is declared twice" },
  );
  // Another method on the same path is another route.
  routes.add("PUT", "/calendars/:calendarId", "replace");
  assert.deepEqual(routes.match("PUT", "/calendars/c1"), {
    value: "replace",
    params: { calendarId: "c1" },
  });
});

Deno.test("add() refuses a parameter named where another route names another", () => {
  assert.throws(
    () => router().add("GET", "/calendars/:id/owner", "owner"),
    {
      message:
        "Route 'GET /calendars/:id/owner' names parameter ':id' where another route names ':calendarId'",
    },
  );
});

Deno.test("A path without parameters is found as the walk finds it: a static segment before a parameter, HEAD by GET, 405 and 404 alike", () => {
  const router = new Router<string>();
  router.add("GET", "/", "root");
  router.add("GET", "/calendars", "list");
  router.add("POST", "/calendars", "create");
  router.add("GET", "/calendars/:calendarId", "one");
  router.add("GET", "/calendars/today", "today");
  const valueOf = (method: string, path: string) => {
    const found = router.match(method, path);
    return found === undefined ? "404" : "allowed" in found ? found.allowed.join(",") : found.value;
  };
  assert.equal(valueOf("GET", "/"), "root");
  assert.equal(valueOf("GET", "/calendars"), "list");
  assert.equal(valueOf("GET", "/calendars/"), "list");
  assert.equal(valueOf("GET", "//calendars"), "list");
  assert.equal(valueOf("HEAD", "/calendars"), "list");
  assert.equal(valueOf("POST", "/calendars"), "create");
  assert.equal(valueOf("DELETE", "/calendars"), "GET,POST");
  assert.equal(valueOf("GET", "/calendars/today"), "today");
  assert.equal(valueOf("GET", "/calendars/tomorrow"), "one");
  assert.equal(valueOf("GET", "/calendar"), "404");
  const found = router.match("GET", "/calendars");
  assert.ok(found !== undefined && "params" in found);
  assert.deepEqual(found.params, {});
  // Each match has its own parameters: one changed is not the next one's.
  (found.params as Record<string, string>).x = "y";
  const again = router.match("GET", "/calendars");
  assert.ok(again !== undefined && "params" in again);
  assert.deepEqual(again.params, {});
});
