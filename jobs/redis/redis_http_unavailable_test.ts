import assert from "node:assert/strict";
import { z } from "zod";
import { Redis as IORedis } from "ioredis";
import {
  type BackgroundJobExecution,
  Command,
  CommandBus,
  composeApplication,
  defineModule,
  type EnqueueResult,
  Handles,
  JobQueue,
  systemActor,
} from "@kit/kernel";
import { acceptedSchema, Controller, httpPlugin, Public, zodSchema } from "@kit/http";
import { skipWithoutRedisServer, startPrivateRedis } from "../../test_support/private_redis.ts";
import { Background, jobsPlugin } from "../mod.ts";
import { failFastRedisOptions, RedisJobStore, tcpScripting } from "../redis.ts";

const ignore = skipWithoutRedisServer;

@Background()
class ClearCalendar {
  static readonly jobName = "calendars.clear";
  run(_payload: { calendarId: string }, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

class RequestClearance extends Command<EnqueueResult> {
  constructor(readonly calendarId: string) {
    super(systemActor);
  }
}

@Handles(RequestClearance)
class RequestClearanceHandler {
  constructor(private readonly jobs: JobQueue) {}
  handle(command: RequestClearance): Promise<EnqueueResult> {
    return this.jobs.enqueue(ClearCalendar, { calendarId: command.calendarId });
  }
}

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
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = new IORedis(server.url, {
      ...failFastRedisOptions({ connectTimeoutMs: 500 }),
      lazyConnect: true,
    });
    await redis.connect();
    try {
      const store = new RedisJobStore(tcpScripting(redis), { listen: false, timeoutMs: 1_000 });
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
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
});
