import assert from "node:assert/strict";
import postgres from "postgres";
import { PostgresJobStore } from "../postgres.ts";

Deno.test("PostgresJobStore listens for new jobs unless told not to (one-connection databases)", async () => {
  // The client never connects: neither store is asked anything.
  const sql = postgres("postgres://nobody@127.0.0.1:1/none", { max: 1 });
  assert.equal(typeof new PostgresJobStore(sql).jobListen, "function");
  assert.equal(new PostgresJobStore(sql, { listen: false }).jobListen, undefined);
  await sql.end({ timeout: 0 });
});
