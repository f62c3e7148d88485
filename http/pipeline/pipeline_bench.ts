/**
 * The request pipeline in process, beside bare Hono answering the same requests:
 * `deno bench -A http/pipeline/pipeline_bench.ts`. The schema route runs once with an
 * authenticator that trusts any `Authorization` header (the pipeline alone) and once with
 * `jwtAuthenticator` and a real HS256 token (one caller's, answered by the verified-token cache),
 * and once with the cache off and the tokens of 1,000 callers in turn (every token verified).
 * The public and schema routes run again with an OpenTelemetry SDK's `MeterProvider` given, so
 * that `http.server.request.duration` is recorded (without one, nothing is measured).
 */
import { Hono } from "hono";
import { SignJWT } from "jose";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import {
  Authenticated,
  Controller,
  httpPlugin,
  type HttpRequest,
  jwtAuthenticator,
  Public,
  zodSchema,
} from "../mod.ts";

const hello = zodSchema(z.object({ message: z.string() }), { io: "output" });

@Controller({
  method: "GET",
  path: "/hello",
  guards: [Public],
  response: { status: 200, body: hello },
})
class Hello {
  handle(): { message: string } {
    return { message: "hello" };
  }
}

const params = zodSchema(z.object({ calendarId: z.string().min(1) }));
const query = zodSchema(z.object({ notify: z.enum(["yes", "no"]).default("no") }));
const headers = zodSchema(z.object({ "x-request-source": z.string().optional() }));
const body = zodSchema(
  z.object({ reason: z.string().min(1), appointmentIds: z.array(z.string()).max(50) }),
);
const accepted = zodSchema(z.object({ id: z.string() }), { io: "output" });

@Controller({
  method: "POST",
  path: "/calendars/:calendarId/clearances",
  guards: [Authenticated],
  params,
  query,
  headers,
  body,
  response: { status: 202, body: accepted },
})
class RequestClearance {
  handle(
    request: HttpRequest<{ params: { calendarId: string }; body: { reason: string } }>,
  ): { id: string } {
    return { id: request.params.calendarId };
  }
}

const actor = userActor("dr-who", { roles: ["practitioner"] });
const app = composeApplication({
  modules: [defineModule("bench", { declarations: [Hello, RequestClearance] })],
  plugins: {
    http: httpPlugin({
      authenticators: [{
        authenticate: (r) => (r.headers.has("authorization") ? { actor } : undefined),
      }],
    }),
  },
});
const kit = app.http;

/** A reader never collected: the SDK aggregates every recording, as it does between exports. */
class IdleReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
const measured = composeApplication({
  modules: [defineModule("bench", { declarations: [Hello, RequestClearance] })],
  plugins: {
    http: httpPlugin({
      authenticators: [{
        authenticate: (r) => (r.headers.has("authorization") ? { actor } : undefined),
      }],
      meterProvider: new MeterProvider({ readers: [new IdleReader()] }),
    }),
  },
}).http;

const secret = new TextEncoder().encode("bench-secret-0123456789-0123456789-0123456789");
/** The pipeline with `jwtAuthenticator`, keeping `verifiedTokens` verified tokens (0: none). */
function withJwtKeeping(verifiedTokens: number) {
  return composeApplication({
    modules: [defineModule("bench", { declarations: [Hello, RequestClearance] })],
    plugins: {
      http: httpPlugin({
        authenticators: [jwtAuthenticator({
          key: secret,
          algorithms: ["HS256"],
          issuer: "https://id.bench.example",
          audience: "bench-api",
          verifiedTokens,
        })],
      }),
    },
  }).http;
}
const withJwt = withJwtKeeping(1000);
/** The JWT pipeline with its verified-token cache off: every token's signature and claims checked. */
const withJwtUncached = withJwtKeeping(0);
// A pool of callers, round-robin, as a service's traffic is: 1,000 distinct tokens.
const pool = await Promise.all(
  Array.from({ length: 1000 }, (_, i) =>
    new SignJWT({ roles: ["practitioner"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(`dr-${i}`)
      .setIssuer("https://id.bench.example")
      .setAudience("bench-api")
      .setExpirationTime("1d")
      .sign(secret)),
);
let next = 0;
const token = await new SignJWT({ roles: ["practitioner"] })
  .setProtectedHeader({ alg: "HS256" })
  .setSubject("dr-who")
  .setIssuer("https://id.bench.example")
  .setAudience("bench-api")
  .setExpirationTime("1d")
  .sign(secret);

const hono = new Hono();
hono.get("/hello", (c) => c.json({ message: "hello" }));

const getHello = () => new Request("http://bench.test/hello");
const clearance = JSON.stringify({ reason: "practice closed", appointmentIds: ["a1", "a2", "a3"] });
const postClearance = (bearer = "x") =>
  new Request("http://bench.test/calendars/cal-1/clearances?notify=yes", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      // As a client sends it, and as a server's request carries it.
      "content-length": String(clearance.length),
      authorization: `Bearer ${bearer}`,
      "x-request-source": "bench",
    },
    body: clearance,
  });

Deno.bench({ name: "bare Hono: GET /hello", group: "public", baseline: true }, async () => {
  await (await hono.fetch(getHello())).arrayBuffer();
});

Deno.bench({ name: "kit pipeline: GET /hello (Public)", group: "public" }, async () => {
  await (await kit.fetch(getHello())).arrayBuffer();
});

Deno.bench({
  name: "kit pipeline: GET /hello (Public), duration recorded by an SDK",
  group: "public",
}, async () => {
  await (await measured.fetch(getHello())).arrayBuffer();
});

const constantAnswer = JSON.stringify({ id: "cal-1:3" });
Deno.bench({
  name: "the harness alone: the POST built, its body read and parsed, a constant 202 read back",
  group: "schema",
}, async () => {
  const request = postClearance(pool[next++ % pool.length]);
  JSON.parse(await request.text());
  const response = new Response(constantAnswer, {
    status: 202,
    headers: { "content-type": "application/json" },
  });
  await response.arrayBuffer();
});

Deno.bench({
  name: "kit pipeline: POST schema route (params, query, header, body, guard)",
  group: "schema",
}, async () => {
  const response = await kit.fetch(postClearance());
  if (response.status !== 202) throw new Error(`unexpected ${response.status}`);
  await response.arrayBuffer();
});

Deno.bench({
  name: "kit pipeline: POST schema route, duration recorded by an SDK",
  group: "schema",
}, async () => {
  const response = await measured.fetch(postClearance());
  if (response.status !== 202) throw new Error(`unexpected ${response.status}`);
  await response.arrayBuffer();
});

Deno.bench({
  name: "kit pipeline: POST schema route, HS256 JWT verified (jwtAuthenticator)",
  group: "schema",
}, async () => {
  const response = await withJwt.fetch(postClearance(token));
  if (response.status !== 202) throw new Error(`unexpected ${response.status}`);
  await response.arrayBuffer();
});

Deno.bench({
  name: "kit pipeline: POST schema route, HS256 JWT of 1,000 callers, cache off",
  group: "schema",
}, async () => {
  const response = await withJwtUncached.fetch(postClearance(pool[next++ % pool.length]));
  if (response.status !== 202) throw new Error(`unexpected ${response.status}`);
  await response.arrayBuffer();
});
