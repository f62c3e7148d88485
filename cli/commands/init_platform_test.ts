import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SignJWT } from "jose";
import type postgres from "postgres";
import { main } from "../main.ts";
import { createTestDatabase, serveProject } from "./served_project.ts";
import { initializedProject, quietly, runIn } from "./test_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");
const redisUrl = Deno.env.get("REDIS_URL");
const secret = "a-secret-of-the-platform-tests";
const tokenEnv = { JWT_SECRET: secret, JWT_ISSUER: "kit-tests", JWT_AUDIENCE: "kit-tests-api" };

async function generate(dir: string, ...args: string[]): Promise<void> {
  const run = await quietly(() => main(["generate", ...args], dir));
  assert.equal(run.result, 0, `${args.join(" ")}: ${run.stderr.join(" ")}`);
}

async function edit(dir: string, path: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(dir, path), "utf8");
  assert.ok(text.includes(from), `${path} holds ${from}`);
  await writeFile(join(dir, path), text.replace(from, to));
}

/** The callers of the tests: each a booker of its tenants. */
const tenantsOf: Readonly<Record<string, readonly string[]>> = {
  ann: ["practice-1"],
  blocked: ["practice-1"],
  ben: ["practice-2"],
  "two-practices": ["practice-1", "practice-2"],
};

function token(sub: string, roles: string[]): Promise<string> {
  return new SignJWT({ sub, roles, tenants: tenantsOf[sub] ?? [] })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(tokenEnv.JWT_ISSUER)
    .setAudience(tokenEnv.JWT_AUDIENCE)
    .setExpirationTime("10m")
    .sign(new TextEncoder().encode(secret));
}

/** POST /appointments/:id/booking as `sub` (none: anonymous), naming `tenant` (none: no header). */
async function book(base: string, id: string, sub?: string, tenant?: string): Promise<Response> {
  const headers: Record<string, string> = {
    ...(sub === undefined ? {} : { authorization: `Bearer ${await token(sub, ["booker"])}` }),
    ...(tenant === undefined ? {} : { "x-tenant-id": tenant }),
  };
  return await fetch(`${base}/appointments/${id}/booking`, { method: "POST", headers });
}

/** The tenant and version of an appointment's row. */
async function rowOf(
  sql: postgres.Sql,
  id: string,
): Promise<{ tenant_id: string; version: number } | undefined> {
  const [row] = await sql`select tenant_id, version from scheduling.appointments where id = ${id}`;
  return row as { tenant_id: string; version: number } | undefined;
}

const controller = `import { Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { BookAppointment } from "../../application/commands/book-appointment/book-appointment.command.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";
import { AppointmentRoutes } from "./appointment.routes.ts";

/** POST /appointments/:appointmentId/booking: books an appointment. */
@Controller({
  group: AppointmentRoutes,
  method: "POST",
  path: "/:appointmentId/booking",
  summary: "Book an appointment",
  params: zodSchema(z.object({ appointmentId: z.string().min(1) })),
  response: { status: 204, description: "Booked" },
  errors: [schedulingErrors.APPOINTMENT_NOT_FOUND],
})
export class BookAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: HttpRequest<{ params: { appointmentId: string } }>): Promise<void> {
    return this.commands.execute(new BookAppointment(request.actor, request.params.appointmentId));
  }
}
`;

/**
 * A project with a repository, a command route in a route group (the controller written by hand,
 * as a worker does), an integration event, an explicit policy refusing the actor `blocked`, and
 * the service `apps/scheduling`.
 */
async function projectWithARoute(): Promise<string> {
  const dir = await initializedProject();
  await generate(dir, "aggregate", "scheduling", "Appointment");
  await generate(
    dir,
    ..."command scheduling BookAppointment --aggregate Appointment --permission appointment.book"
      .split(" "),
  );
  await generate(dir, "route-group", "scheduling", "AppointmentRoutes", "--role", "booker");
  await generate(dir, "integration-event", "scheduling", "AppointmentBooked");
  await generate(
    dir,
    ..."policy scheduling BookingPolicy --permission appointment.book".split(" "),
  );
  await generate(dir, "service", "scheduling");
  await writeFile(
    join(dir, "src/contexts/scheduling/presentation/http/book-appointment.controller.ts"),
    controller,
  );
  await edit(
    dir,
    "src/platform/auth/role.ts",
    "// kit:begin permission-imports\n",
    '// kit:begin permission-imports\nimport { schedulingPermissions } from "../../contexts/scheduling/scheduling.permissions.ts";\n',
  );
  await edit(
    dir,
    "src/platform/auth/role.ts",
    '"booker": [],',
    '"booker": [schedulingPermissions["appointment.book"]],',
  );
  await edit(
    dir,
    "src/contexts/scheduling/application/policies/booking-policy.policy.ts",
    "({ granted }) => granted,",
    '({ actor, granted }) => granted && actor.id !== "blocked",',
  );
  assert.equal((await quietly(() => main(["docs"], dir))).result, 0);
  await runIn(dir, Deno.execPath(), ["fmt", "--quiet"]);
  return dir;
}

Deno.test({
  name:
    "kit init's platform serves a generated route on PostgreSQL, migrated at start, and writes its documents",
  ignore: databaseUrl === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await projectWithARoute();

    // Its verify is first_hour_test.ts's (a project with routes, on PostgreSQL).
    await t.step("the generated project's specs pass straight away", async () => {
      const specs = await createTestDatabase(databaseUrl!);
      try {
        const output = await runIn(dir, Deno.execPath(), ["task", "test"], {
          DATABASE_URL: specs.url,
        });
        assert.match(
          output,
          /PostgresAppointmentRepository on a database of its own \(needs DATABASE_URL\) \.\.\. ok/,
        );
        assert.match(output, /BookAppointment of another tenant's Appointment is refused/);
        assert.match(output, /the scheduling service composes with its context alone/);
        assert.match(
          output,
          /every route answers a caller without a token as the OpenAPI document says \.\.\. ok/,
        );
      } finally {
        await specs.drop();
      }
    });

    await t.step(
      "the contract spec fails when a route declares an error code of no known status",
      async () => {
        const path = "src/contexts/scheduling/presentation/http/book-appointment.controller.ts";
        const declared = "errors: [schedulingErrors.APPOINTMENT_NOT_FOUND],";
        await edit(
          dir,
          path,
          declared,
          'errors: [schedulingErrors.APPOINTMENT_NOT_FOUND, "BOOKING_CLOSED"],',
        );
        try {
          // The composition refuses it: verify's run of the contract spec (verify_task_test.ts).
          // What refuses it is the composition, at run time: the spec runs unchecked (the
          // previous step type-checked the project).
          const verify = await new Deno.Command(Deno.execPath(), {
            args: ["test", "--quiet", "-A", "--no-check", "test/contract.spec.ts"],
            cwd: dir,
            env: { NO_COLOR: "1" },
            stdout: "piped",
            stderr: "piped",
          }).output();
          const said = new TextDecoder().decode(verify.stdout) +
            new TextDecoder().decode(verify.stderr);
          assert.notEqual(verify.code, 0, said);
          assert.match(said, /Controller 'BookAppointmentController'.*'BOOKING_CLOSED'/);
        } finally {
          await edit(
            dir,
            path,
            'errors: [schedulingErrors.APPOINTMENT_NOT_FOUND, "BOOKING_CLOSED"],',
            declared,
          );
        }
      },
    );

    await t.step("src/main.ts migrates at start and answers the route on PostgreSQL", async () => {
      const db = await createTestDatabase(databaseUrl!);
      const app = await serveProject(dir, "src/main.ts", { ...tokenEnv, DATABASE_URL: db.url });
      try {
        assert.match(app.output(), /data on PostgreSQL \(DATABASE_URL\), jobs PostgreSQL/);
        const applied = await db.sql`select version from kit_app_migrations order by version`;
        assert.deepEqual(applied.map((row) => row.version), [1]);
        const tables = await db.sql`select to_regclass('scheduling.appointments') as appointments,
          to_regclass('kit_outbox') as outbox,
          to_regclass('scheduling.background_jobs') as jobs`;
        assert.deepEqual(tables[0], {
          appointments: "scheduling.appointments",
          outbox: "kit_outbox",
          jobs: "scheduling.background_jobs",
        });
        assert.equal((await book(app.url, "a-1")).status, 401);
        const missing = await book(app.url, "a-1", "ann", "practice-1");
        assert.equal(missing.status, 404);
        assert.equal((await missing.json()).code, "APPOINTMENT_NOT_FOUND");
        await db.sql`insert into scheduling.appointments (id, tenant_id, version)
          values ('a-1', 'practice-1', 1)`;
        assert.equal((await book(app.url, "a-1", "ann", "practice-1")).status, 204);
        assert.deepEqual(await rowOf(db.sql, "a-1"), { tenant_id: "practice-1", version: 2 });
        // Another tenant's caller finds nothing of practice-1, and may not name it.
        const elsewhere = await book(app.url, "a-1", "ben", "practice-2");
        assert.equal(elsewhere.status, 404);
        assert.equal((await elsewhere.json()).code, "APPOINTMENT_NOT_FOUND");
        assert.equal((await book(app.url, "a-1", "ben", "practice-1")).status, 403);
        // A caller of two tenants who names neither reaches no tenant's data.
        const unnamed = await book(app.url, "a-1", "two-practices");
        assert.equal((await unnamed.json()).code, "TENANT_REQUIRED");
        assert.equal(unnamed.status, 400);
        assert.deepEqual(await rowOf(db.sql, "a-1"), { tenant_id: "practice-1", version: 2 });
        assert.equal((await book(app.url, "a-1", "blocked", "practice-1")).status, 403);
        // A token signed with the project's own secret but living far too long, or whose claims
        // are malformed, is refused (401, saying why), never read as a caller with no tenants.
        for (
          const [claims, detail] of [
            [{ exp: 1e300 }, /lives longer than the 86400 s allowed/],
            [{ tenants: "practice-1" }, /tenants claim is not a list of strings/],
            [{ roles: "booker" }, /roles claim is not a list of strings/],
          ] as const
        ) {
          const iat = Math.floor(Date.now() / 1000);
          const forged = await new SignJWT({
            sub: "ann",
            roles: ["booker"],
            tenants: ["practice-1"],
            iss: tokenEnv.JWT_ISSUER,
            aud: tokenEnv.JWT_AUDIENCE,
            iat,
            exp: iat + 600,
            ...claims,
          }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(secret));
          const answer = await fetch(`${app.url}/appointments/a-1/booking`, {
            method: "POST",
            headers: { authorization: `Bearer ${forged}`, "x-tenant-id": "practice-1" },
          });
          const problem = await answer.json();
          assert.equal(answer.status, 401, JSON.stringify(problem));
          assert.equal(problem.code, "UNAUTHORIZED");
          assert.match(problem.detail, detail);
        }
        // An id PostgreSQL cannot hold is refused at the edge, naming it, never a 500.
        const nul = await book(app.url, "a%00", "ann", "practice-1");
        assert.equal(nul.status, 422, await nul.clone().text());
        const refusal = await nul.json();
        assert.equal(refusal.code, "VALIDATION_FAILED");
        assert.deepEqual(refusal.errors.map((e: { pointer: string }) => e.pointer), [
          "/params/appointmentId",
        ]);
        const openapi = await (await fetch(`${app.url}/openapi.json`)).json();
        assert.ok(openapi.paths["/appointments/{appointmentId}/booking"]?.post);
        const docs = await fetch(`${app.url}/docs`);
        assert.equal(docs.status, 200);
        assert.match(docs.headers.get("content-security-policy") ?? "", /script-src 'self'/);
        const page = await docs.text();
        const script = page.match(/<script src="([^"]+)"/)?.[1];
        assert.ok(script, page);
        const bundle = await fetch(new URL(script, `${app.url}/docs/`));
        assert.equal(bundle.status, 200);
        assert.match(await bundle.text(), /SwaggerUIBundle/);
        assert.deepEqual(await (await fetch(`${app.url}/health`)).json(), { status: "ok" });
      } finally {
        assert.equal(await app.stop(), 0, app.output());
        await db.drop();
      }
    });

    await t.step("a generated service honours the explicit policies", async () => {
      const db = await createTestDatabase(databaseUrl!);
      const service = await serveProject(dir, "apps/scheduling/main.ts", {
        ...tokenEnv,
        DATABASE_URL: db.url,
      });
      try {
        await db.sql`insert into scheduling.appointments (id, tenant_id, version)
          values ('a-2', 'practice-1', 1)`;
        assert.equal((await book(service.url, "a-2", "blocked", "practice-1")).status, 403);
        assert.equal((await book(service.url, "a-2", "ann", "practice-1")).status, 204);
        assert.equal((await book(service.url, "a-2", "ben", "practice-2")).status, 404);
      } finally {
        assert.equal(await service.stop(), 0, service.output());
        await db.drop();
      }
    });

    await t.step(
      "docs:generate writes the documents, docs:check fails after a hand edit",
      async () => {
        await runIn(dir, Deno.execPath(), ["task", "docs:generate"]);
        const name = dir.split("/").pop()!.toLowerCase().replace(/[^a-z0-9]+/g, "-");
        assert.deepEqual((await readdir(join(dir, "openapi"))).sort(), [
          `${name}.yaml`,
          "scheduling.yaml",
        ]);
        const openapi = await readFile(join(dir, `openapi/${name}.yaml`), "utf8");
        assert.match(openapi, /\/appointments\/\{appointmentId\}\/booking:/);
        const asyncapi = await readFile(join(dir, "docs/integration/asyncapi.yaml"), "utf8");
        assert.match(asyncapi, /asyncapi: 3\.0\.0/);
        assert.match(asyncapi, /scheduling\.appointment\.booked\.v1:/);
        const catalogPath = join(dir, "docs/integration/event-catalog.md");
        const catalog = await readFile(catalogPath, "utf8");
        assert.match(catalog, /\| `scheduling\.appointment\.booked` \| 1 \| scheduling \| none \|/);
        await runIn(dir, Deno.execPath(), ["task", "docs:check"]);
        await runIn(dir, Deno.execPath(), ["task", "docs:generate"]);
        assert.equal(await readFile(catalogPath, "utf8"), catalog, "deterministic");
        await runIn(dir, Deno.execPath(), ["fmt", "--check"]);
        await writeFile(catalogPath, catalog.replace("none", "someone"));
        const check = await new Deno.Command(Deno.execPath(), {
          args: ["task", "docs:check"],
          cwd: dir,
          env: { NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(check.code, 1);
        assert.match(
          new TextDecoder().decode(check.stderr),
          /docs:check: stale docs\/integration\/event-catalog\.md \(run 'deno task docs:generate'\)/,
        );
      },
    );
  },
});

for (const queue of ["redis", "memory"] as const) {
  Deno.test({
    name: `kit init --queue ${queue} composes a platform that starts on its job store`,
    ignore: databaseUrl === undefined || (queue === "redis" && redisUrl === undefined),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      // Its job store and migrations type-check as templates (cli/templates/project/), and
      // project_template_test.ts tests what each queue plans.
      const dir = await initializedProject(["--queue", queue]);
      const db = await createTestDatabase(databaseUrl!);
      const app = await serveProject(dir, "src/main.ts", {
        ...tokenEnv,
        DATABASE_URL: db.url,
        // The shared test server keeps no append-only file: said out loud.
        ...(queue === "redis" ? { REDIS_URL: redisUrl!, REDIS_DURABILITY: "off" } : {}),
      });
      try {
        assert.match(
          app.output(),
          queue === "redis" ? /jobs Redis/ : /jobs in memory/,
        );
        assert.deepEqual(await (await fetch(`${app.url}/health`)).json(), { status: "ok" });
        const jobs = await db.sql`select to_regclass('background_jobs') as jobs,
          to_regclass('scheduling.background_jobs') as scheduling`;
        assert.deepEqual(
          { ...jobs[0] },
          { jobs: null, scheduling: null },
          "no job table when the jobs are elsewhere",
        );
        const outbox = await db.sql`select to_regclass('kit_job_outbox') as outbox`;
        assert.equal(
          outbox[0]!.outbox === null,
          queue !== "redis",
          "queue redis enqueues through the jobs' outbox",
        );
      } finally {
        assert.equal(await app.stop(), 0, app.output());
        await db.drop();
      }
    },
  });
}

Deno.test({
  name: "kit init's platform runs in memory without DATABASE_URL (deno task dev)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject();
    const app = await serveProject(dir, "src/main.ts", {});
    try {
      assert.match(app.output(), /data in memory, jobs in memory/);
      const printed = /a development token of the tenant 'development' \(valid one hour\): (\S+)/
        .exec(app.output());
      assert.ok(printed, app.output());
      const claims = JSON.parse(
        atob(printed[1]!.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")),
      );
      assert.deepEqual(claims.tenants, ["development"]);
      const health = await fetch(`${app.url}/health`);
      assert.equal(health.headers.get("x-content-type-options"), "nosniff");
      assert.deepEqual(await health.json(), { status: "ok" });
      const openapi = await fetch(`${app.url}/openapi.json`);
      assert.equal(openapi.headers.get("x-content-type-options"), "nosniff");
      assert.equal(openapi.headers.get("content-type"), "application/json");
      await openapi.body?.cancel();
    } finally {
      assert.equal(await app.stop(), 0, app.output());
    }
  },
});
