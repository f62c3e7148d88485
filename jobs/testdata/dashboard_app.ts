/**
 * The application the dashboard's tests run: the dashboard on an in-memory store, a stand-in
 * bearer authenticator, `operator` and `reader` roles.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  accessPolicy,
  type Clock,
  composeApplication,
  type Module,
  type TransactionManager,
  UnauthorizedError,
  userActor,
} from "@kit/kernel";
import type { Outbox } from "@kit/kernel/outbox";
import type { ProcessStore } from "@kit/kernel/process";
import { type Authenticator, httpPlugin } from "@kit/http";
import { InMemoryJobStore, jobsPlugin, type JobStore } from "../mod.ts";
import type { NewJob } from "../store.ts";
import { type DashboardEventOptions, jobsDashboard } from "../dashboard.ts";

/** Identifies callers from `authorization: Bearer id;role,role;tenant` (a stand-in for a JWT). */
const bearer: Authenticator = {
  scheme: "bearer",
  authenticate(request) {
    const header = request.headers.get("authorization");
    if (header === null) return undefined;
    const [id, roles, tenants] = header.replace(/^Bearer /, "").split(";");
    if (!id) throw new UnauthorizedError("Malformed test credential");
    return {
      actor: userActor(id, {
        roles: roles ? roles.split(",") : [],
        tenants: tenants ? tenants.split(",") : [],
      }),
    };
  },
};

/** The tests' time. */
export const t0 = new Date("2026-05-01T08:00:00.000Z");
let sequence = 0;

/** A new job of the scheduling queue, overridden as given. */
export function job(overrides: Partial<NewJob> = {}): NewJob {
  sequence += 1;
  return {
    id: `0192${String(sequence).padStart(4, "0")}-0000-7000-8000-${crypto.randomUUID().slice(-12)}`,
    name: "scheduling.clear-calendar",
    queue: "scheduling",
    payload: { calendarId: "secret-payload" },
    actor: userActor("dr-who", { roles: ["practitioner"], attributes: { email: "x@y" } }),
    tenantId: "t1",
    correlationId: "corr-1",
    traceparent: `00-${"4bf92f3577b34da6a3ce929d0e0e4736"}-00f067aa0ba902b7-01`,
    maxAttempts: 1,
    runAt: t0,
    createdAt: new Date(t0.getTime() + sequence),
    ...overrides,
  };
}

/**
 * The dashboard's application: its store (in memory unless one is given; typed as the in-memory
 * one, whose methods every built-in store has), a caller, a way to make dead jobs.
 */
// deno-lint-ignore explicit-module-boundary-types
export function dashboardApp(
  options: {
    events?: DashboardEventOptions;
    modules?: readonly Module[];
    clock?: Clock;
    outbox?: Outbox;
    processes?: ProcessStore;
    store?: JobStore;
    transactions?: TransactionManager;
  } = {},
) {
  const store = (options.store ?? new InMemoryJobStore()) as InMemoryJobStore;
  const dashboard = jobsDashboard({
    prefix: "/ops/jobs",
    store,
    ...(options.events === undefined ? {} : { events: options.events }),
    ...(options.outbox === undefined ? {} : { outbox: options.outbox }),
    ...(options.processes === undefined ? {} : { processes: options.processes }),
  });
  const application = composeApplication({
    modules: [...(options.modules ?? []), dashboard.module],
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.transactions === undefined ? {} : { transactions: options.transactions }),
    accessPolicy: accessPolicy({
      grants: {
        operator: [dashboard.permissions["jobs.read"], dashboard.permissions["jobs.operate"]],
        reader: [dashboard.permissions["jobs.read"]],
      },
    }),
    plugins: {
      backgroundJobs: jobsPlugin({ store }),
      http: httpPlugin({
        authenticators: [bearer],
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        undeclaredErrors: "refuse",
        routes: dashboard.routes,
        info: { title: "Ops", version: "1.0.0" },
        openapi: { path: "/openapi.json" },
      }),
    },
  });
  const call = async (
    method: string,
    path: string,
    token: string | undefined,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await application.http.fetch(
      new Request(`http://kit.test${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
  /** A dead job of the store, failed with the error code. */
  const dead = async (j: NewJob, errorCode: string): Promise<void> => {
    // Due before every waiting job, so that the claim takes it.
    await store.jobInsert({ job: { ...j, runAt: new Date(t0.getTime() - 3_600_000) } });
    const [claimed] = await store.jobClaim({
      queue: j.queue,
      limit: 1,
      now: t0,
      leases: {},
      defaultLeaseMs: 1_000,
    });
    assert.equal(claimed?.id, j.id);
    await store.jobFail({
      id: j.id,
      leaseToken: claimed!.leaseToken,
      now: t0,
      errorCode,
      errorMessage: "failed",
    });
  };
  return {
    application,
    store,
    call,
    dead,
    dashboard,
    fetch: (request: Request): Promise<Response> =>
      Promise.resolve(application.http.fetch(request)),
  };
}
