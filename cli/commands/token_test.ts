import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serveProject } from "./served_project.ts";
import { initializedProject, kitIn as kit, kitWithEnv } from "./test_project.ts";

/** The process's environment without the secret and the database: what `deno task dev` has. */
function without(name: string): string | undefined {
  return name === "JWT_SECRET" || name === "DATABASE_URL" ? undefined : Deno.env.get(name);
}

/** A route of the project that needs `agenda.read`, granted to the practitioner role. */
async function projectWithAgenda(): Promise<string> {
  const dir = await initializedProject();
  for (
    const args of [
      ["generate", "query", "scheduling", "ReadAgenda", "--permission", "agenda.read"],
      ["generate", "route-group", "scheduling", "AgendaRoutes", "--role", "practitioner"],
    ]
  ) {
    const run = await kit(dir, ...args);
    assert.equal(run.result, 0, run.out);
  }
  const roles = join(dir, "src/platform/auth/role.ts");
  const text = await readFile(roles, "utf8");
  await writeFile(
    roles,
    text.replace(/"?practitioner"?: \[\]/, '"practitioner": [schedulingPermissions["agenda.read"]]')
      .replace(
        /^/,
        'import { schedulingPermissions } from "../../contexts/scheduling/scheduling.permissions.ts";\n',
      ),
  );
  await writeFile(
    join(dir, "src/contexts/scheduling/presentation/http/read-agenda.controller.ts"),
    `import { Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { ReadAgenda } from "../../application/queries/read-agenda/read-agenda.query.ts";
import { AgendaRoutes } from "./agenda.routes.ts";

/** GET /agendas: the practitioner's agenda. */
@Controller({
  group: AgendaRoutes,
  method: "GET",
  path: "/",
  response: { status: 200, body: zodSchema(z.object({ id: z.string() }), { io: "output" }) },
})
export class ReadAgendaController {
  constructor(private readonly queries: QueryBus) {}
  handle(request: HttpRequest<Record<never, never>>): Promise<{ id: string }> {
    return this.queries.execute(new ReadAgenda(request.actor));
  }
}
`,
  );
  const docs = await kit(dir, "docs");
  assert.equal(docs.result, 0, docs.out);
  return dir;
}

Deno.test({
  name:
    "kit token signs what the generated dev server accepts: a practitioner reads the agenda, a role-less token is refused, none is unidentified",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await projectWithAgenda();
    const app = await serveProject(dir, "src/main.ts", { JWT_SECRET: "" });
    try {
      // The process's environment without JWT_SECRET and DATABASE_URL: the development secret.
      const kitHere = (dir: string, ...args: string[]) => kitWithEnv(dir, without, ...args);
      let practitioner: string, nobody: string;
      {
        const signed = await kitHere(
          dir,
          "token",
          "--sub",
          "dr-1",
          "--role",
          "practitioner",
          "--tenant",
          "development",
        );
        assert.equal(signed.result, 0, signed.out);
        practitioner = signed.out.trim();
        assert.match(practitioner, /^[\w-]+\.[\w-]+\.[\w-]+$/, "one line: the token");
        nobody = (await kitHere(dir, "token", "--sub", "someone", "--tenant", "development")).out
          .trim();
      }
      const get = (token?: string) =>
        fetch(`${app.url}/agendas/`, {
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            "x-tenant-id": "development",
          },
        });
      // The dev server's own token holds every role the platform grants: it calls the route too.
      const printed =
        /a development token of the tenant 'development' with the roles practitioner \(valid one hour\): (\S+)/
          .exec(app.output());
      assert.ok(printed, app.output());
      assert.match(
        app.output(),
        /another: kit token --sub <id> --role <role> --tenant development/,
      );
      const developer = await get(printed[1]);
      assert.equal(developer.status, 200);
      await developer.body?.cancel();
      const ok = await get(practitioner);
      assert.equal(ok.status, 200, await ok.clone().text());
      assert.deepEqual(await ok.json(), { id: "TODO(domain)" });
      const refused = await get(nobody);
      assert.equal(refused.status, 403);
      await refused.body?.cancel();
      const anonymous = await get();
      assert.equal(anonymous.status, 401);
      await anonymous.body?.cancel();
    } finally {
      await app.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "kit token refuses, in one line, what would give a token that does nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject();
    const env = new Map(Object.entries(Deno.env.toObject()));
    env.delete("JWT_SECRET");
    env.delete("DATABASE_URL");
    const kitHere = (dir: string, ...args: string[]) =>
      kitWithEnv(dir, (name) => env.get(name), ...args);
    try {
      for (
        const [args, message] of [
          [["token"], "Usage: kit token --sub <id>"],
          [["token", "--sub", "a", "--role", "practitoner"], "grants no role 'practitoner'"],
          [["token", "--sub", "a", "--expires", "1 hour"], "--expires '1 hour' is not a duration"],
          [["token", "--sub", "a", "--expires", "0h"], "--expires '0h' is not a duration"],
          [["token", "--sub", "a", "--expires", "2d"], "--expires '2d' is longer than the 24h"],
          [["token", "--sub", "a b"], "--sub 'a b' must be"],
          [["token", "--sub", "a", "--colour", "red"], "Unknown option '--colour'"],
        ] as const
      ) {
        const run = await kitHere(dir, ...args);
        assert.equal(run.result, 1, args.join(" "));
        assert.match(run.out, new RegExp(RegExp.escape(message)), run.out);
        assert.equal(run.out.split("\n").length, 1, run.out);
      }
      env.set("DATABASE_URL", "postgres://localhost/app");
      const closed = await kitHere(dir, "token", "--sub", "a");
      assert.equal(closed.result, 1);
      assert.match(
        closed.out,
        /JWT_SECRET is not set, and with DATABASE_URL the API then accepts no token/,
      );
      env.set("JWT_SECRET", "s3cret-of-the-deployment");
      const signed = await kitHere(
        dir,
        "token",
        "--sub",
        "a",
        "--expires",
        "30m",
        "--scope",
        "read",
      );
      assert.equal(signed.result, 0, signed.out);
      const [, payload] = signed.out.trim().split(".");
      const claims = JSON.parse(atob(payload!.replaceAll("-", "+").replaceAll("_", "/")));
      assert.equal(claims.sub, "a");
      assert.equal(claims.scope, "read");
      assert.equal(claims.exp - claims.iat, 1800);
      assert.match(claims.iss, /-identity$/);
      assert.match(claims.aud, /-api$/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
