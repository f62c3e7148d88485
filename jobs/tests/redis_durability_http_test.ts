import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { z } from "zod";
import { CommandBus, composeApplication, defineModule, JobQueue } from "@kit/kernel";
import { acceptedSchema, Controller, httpPlugin, Public, zodSchema } from "@kit/http";
import { skipWithoutRedisServer, startPrivateRedis } from "../../test_support/private_redis.ts";
import { jobsPlugin } from "../mod.ts";
import {
  failFastRedisOptions,
  RedisDurabilityMonitor,
  RedisJobStore,
  tcpScripting,
} from "../redis.ts";
import {
  ClearCalendar,
  RequestClearance,
  RequestClearanceHandler,
} from "../testdata/clearance_case.ts";

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
    "Redis that lost its persistence: a route that enqueues straight to Redis answers 503 with Retry-After, and 202 once it is durable again",
  ignore: skipWithoutRedisServer,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = new IORedis(server.url, { ...failFastRedisOptions(), lazyConnect: true });
    await redis.connect();
    try {
      const monitor = new RedisDurabilityMonitor(tcpScripting(redis), { logger: { log() {} } });
      const store = new RedisJobStore(tcpScripting(redis), { listen: false, durability: monitor });
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
      await monitor.check();
      assert.equal((await post()).status, 202);

      await redis.config("SET", "appendonly", "no");
      await monitor.check();
      const refused = await post();
      assert.equal(refused.status, 503, await refused.clone().text());
      assert.equal(refused.headers.get("retry-after"), "5");
      const problem = await refused.json();
      assert.equal(problem.code, "SERVICE_UNAVAILABLE");
      assert.equal(problem.id, undefined);

      await redis.config("SET", "appendonly", "yes");
      await monitor.check();
      assert.equal((await post()).status, 202, "recovers by itself");
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
});
