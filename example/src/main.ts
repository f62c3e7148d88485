/**
 * The scheduling API: `deno task dev`. Needs `DATABASE_URL` (a PostgreSQL server); runs the worker
 * in process unless `JOBS=off`, and relays the outbox to the event handlers.
 */
import { composePlatform } from "./platform/compose-application.ts";
import { signToken } from "./platform/auth/tokens.ts";
import { connectDatabase } from "./platform/database/database.ts";
import { migrate } from "./platform/database/migrate.ts";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.error("kit example: set DATABASE_URL (postgres://user@host:5432/database)");
  Deno.exit(1);
}
const secret = new TextEncoder().encode(
  Deno.env.get("JWT_SECRET") ?? "dev-only-secret-of-the-scheduling-example",
);
const sql = connectDatabase(url);
await migrate(sql);
const application = composePlatform({
  sql,
  jwtSecret: secret,
  startJobs: Deno.env.get("JOBS") !== "off",
  startEvents: true,
});
await application.start();

const port = Number(Deno.env.get("PORT") ?? 8000);
const openapi = JSON.stringify(application.http.openapi());
const server = Deno.serve(
  { port, hostname: "127.0.0.1", onListen: () => {} },
  (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/openapi.json") {
      return new Response(openapi, { headers: { "content-type": "application/json" } });
    }
    if (pathname === "/health") return Response.json({ status: "ok" });
    return application.http.fetch(request);
  },
);
const base = `http://127.0.0.1:${server.addr.port}`;
const token = await signToken(secret, {
  sub: "dr-who",
  roles: ["practitioner"],
  tenants: ["practice-1"],
});
console.log(`scheduling API on ${base} (OpenAPI at ${base}/openapi.json)`);
console.log(`sample token (practitioner dr-who of practice-1):\n  ${token}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await server.shutdown();
    await application.stop();
    await sql.end({ timeout: 5 });
    Deno.exit(0);
  });
}
