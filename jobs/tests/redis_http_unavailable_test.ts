import assert from "node:assert/strict";
import { z } from "zod";
import { CommandBus, composeApplication, defineModule, JobQueue } from "@kit/kernel";
import { acceptedSchema, Controller, httpPlugin, Public, zodSchema } from "@kit/http";
import { skipWithoutRedisServer } from "../../test_support/private_redis.ts";
import { jobsPlugin } from "../mod.ts";
import {
  ClearCalendar,
  RequestClearance,
  RequestClearanceHandler,
  withRedisToKill,
} from "../testdata/clearance_case.ts";

const ignore = skipWithoutRedisServer;

@Controller({
  method: "POST",
  path: "/calendars/:calendarId/clearances",
  guards: [Public],
  params: zodSchema(z.object({ calendarId: z.string().max(100) })),
  response: { status: 202, body: acceptedSchema },
})
class RequestClearanceController {
  constructor(private readonly commands: CommandBus) {}
  async handle(request: { params: { calendarId: string } }): Promise<{ id: string }> {
    const { id } = await this.commands.execute(new RequestClearance(request.params.calendarId));
    return { id };
  }
}

Deno.test({
  name:
    "Redis down: a route that enqueues answers 503 SERVICE_UNAVAILABLE with Retry-After within the time-out, never an id",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withRedisToKill(async ({ server, store }) => {
      const app = composeApplication({
        modules: [defineModule("calendars", {
          declarations: [ClearCalendar, RequestClearanceHandler, RequestClearanceController],
          dependencies: new Map<abstract new (...args: never[]) => unknown, readonly unknown[]>([
            [RequestClearanceHandler, [JobQueue]],
            [RequestClearanceController, [CommandBus]],
          ]) as never,
        })],
        plugins: { backgroundJobs: jobsPlugin({ store }), http: httpPlugin() },
      });
      const post = () =>
        app.http.fetch(
          new Request("http://api.test/calendars/cal-1/clearances", { method: "POST" }),
        );
      const accepted = await post();
      assert.equal(accepted.status, 202, await accepted.clone().text());
      const { id } = await accepted.json();
      assert.equal((await store.jobFind({ id, reach: {} }))?.status, "waiting");

      await server.stop("SIGKILL");
      const started = performance.now();
      const refused = await post();
      const elapsed = performance.now() - started;
      assert.equal(refused.status, 503, await refused.clone().text());
      assert.equal(refused.headers.get("content-type"), "application/problem+json");
      assert.match(refused.headers.get("retry-after") ?? "", /^[1-9][0-9]*$/);
      const problem = await refused.json();
      assert.equal(problem.code, "SERVICE_UNAVAILABLE");
      assert.equal(problem.id, undefined);
      assert.ok(elapsed < 5_000, `answered within the time-out plus a margin (${elapsed} ms)`);
    });
  },
});
