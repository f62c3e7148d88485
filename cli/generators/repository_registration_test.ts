import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readRegion } from "../files/marker_regions.ts";
import { main } from "../main.ts";
import { initializedProject, quietly } from "../commands/test_project.ts";

const composePath = "src/platform/compose-application.ts";

async function generateAll(dir: string, runs: readonly string[][]): Promise<string> {
  for (const args of runs) {
    const run = await quietly(() => main(["generate", ...args], dir));
    assert.equal(run.result, 0, `${args.join(" ")}: ${run.stderr.join(" ")}`);
  }
  return await readFile(join(dir, composePath), "utf8");
}

Deno.test("a generated repository registers its in-memory and PostgreSQL adapters, in any order", async () => {
  const aggregates = [
    ["aggregate", "scheduling", "Appointment"],
    ["aggregate", "identity", "Person"],
  ];
  const first = await generateAll(await initializedProject(), [
    ...aggregates,
    ["repository", "scheduling", "Appointment"],
    ["repository", "identity", "Person"],
    ["command", "scheduling", "Book", "--aggregate", "Appointment"],
  ]);
  const second = await generateAll(await initializedProject(), [
    ...aggregates,
    ["command", "identity", "Register", "--aggregate", "Person"],
    ["repository", "scheduling", "Appointment"],
    ["command", "scheduling", "Book", "--aggregate", "Appointment"],
  ]);
  assert.deepEqual(readRegion(first, "memory-repositories", composePath), [
    "identityPersonRepository,",
    "schedulingAppointmentRepository,",
  ]);
  assert.deepEqual(readRegion(first, "postgres-repositories", composePath), [
    "identityPersonRepositoryOnPostgres,",
    "schedulingAppointmentRepositoryOnPostgres,",
  ]);
  assert.equal(readRegion(first, "provider-imports", composePath).length, 4);
  assert.deepEqual(readRegion(first, "providers", composePath), []);
  assert.equal(second, first);
});
