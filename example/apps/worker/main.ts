/**
 * The worker alone: runs the background jobs and scheduled jobs of every context, no HTTP. Deploy
 * it before the code that enqueues a new job name. Needs `DATABASE_URL` (the database the API
 * enqueues in); prints "worker started" once it claims.
 */
import { composePlatform } from "../../src/platform/compose-application.ts";
import { connectDatabase } from "../../src/platform/database/database.ts";
import { migrate } from "../../src/platform/database/migrate.ts";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.error("apps/worker needs DATABASE_URL (the database the API enqueues in)");
  Deno.exit(1);
}
const sql = connectDatabase(url);
await migrate(sql);
const application = composePlatform({
  sql,
  // The worker serves no request: no token is ever verified with this key.
  jwtSecret: crypto.getRandomValues(new Uint8Array(32)),
  startJobs: true,
});
await application.start();
console.log("worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await application.stop();
    await sql.end({ timeout: 5 });
    Deno.exit(0);
  });
}
