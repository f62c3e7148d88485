/**
 * A project `kit init` makes runs kit's patched postgres.js (`@kit/postgres`), not upstream's: the
 * fixes of `vendor/postgres` (time-outs, no crash on a closed connection) reach users. Proven by
 * behaviour only the patched driver has: `acquire_timeout` refuses a query that waited that long
 * for a connection (upstream queues it without limit).
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject, runIn } from "./test_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");

const probe = `import postgres from "postgres";
const sql = postgres(Deno.env.get("DATABASE_URL")!, { max: 1, acquire_timeout: 0.2, onnotice: () => {} } as postgres.Options<{}>);
const held = await sql.reserve();
const deadline = setTimeout(() => { console.log("queued without limit"); Deno.exit(3); }, 5_000);
try {
  await sql\`select 1\`;
  console.log("answered");
} catch (error) {
  console.log("refused " + (error as { code?: string }).code);
}
clearTimeout(deadline);
held.release();
await sql.end({ timeout: 1 });
`;

Deno.test({
  name:
    "kit init's project imports kit's patched postgres.js: acquire_timeout refuses a query kept waiting",
  ignore: databaseUrl === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject();
    const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
    assert.match(config.imports.postgres, /^jsr:@kit\/postgres@\^/);
    await writeFile(join(dir, "probe.ts"), probe);
    const output = await runIn(dir, Deno.execPath(), ["run", "-A", "probe.ts"], {
      DATABASE_URL: databaseUrl!,
    });
    assert.match(output, /refused ACQUIRE_TIMEOUT/);
  },
});
