import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { initializedProject, projectTree, quietly, runIn } from "../commands/test_project.ts";

async function kit(dir: string, ...args: string[]): Promise<{ result: number; stderr: string[] }> {
  return await quietly(() => main(args, dir));
}

Deno.test("kit generate error-code declares a code with its status in the context's errors file; command --aggregate declares and throws <AGGREGATE>_NOT_FOUND", async () => {
  const dir = await initializedProject();
  const path = "src/contexts/scheduling/domain/scheduling-errors.ts";
  let run = await kit(
    dir,
    ..."generate error-code scheduling SLOT_TAKEN --status 409 --local-only".split(" "),
    "--description",
    "The slot is booked already",
  );
  assert.equal(run.result, 0, run.stderr.join(" "));
  await kit(dir, "generate", "aggregate", "scheduling", "Appointment");
  run = await kit(
    dir,
    ..."generate command scheduling CancelAppointment --aggregate Appointment".split(" "),
  );
  assert.equal(run.result, 0, run.stderr.join(" "));
  const declared = await readFile(join(dir, path), "utf8");
  assert.match(declared, /export const schedulingErrors = defineErrorCodes\("scheduling", \{/);
  assert.match(
    declared,
    /\/\/ kit:begin error-codes\n\s+APPOINTMENT_EXISTS: \{\n?\s*status: 409,[^}]*\},\n\s+APPOINTMENT_NOT_FOUND: \{\n?\s*status: 404,[^}]*\},\n\s+SLOT_TAKEN: \{ status: 409, description: "The slot is booked already" \},\n\s+\/\/ kit:end/,
  );
  const handler = await readFile(
    join(
      dir,
      "src/contexts/scheduling/application/commands/cancel-appointment/cancel-appointment.handler.ts",
    ),
    "utf8",
  );
  assert.match(handler, /throw schedulingErrors\.APPOINTMENT_NOT_FOUND\.error\(/);
  // Its repository's code (a duplicate in one tenant) and the command's, both in one contract.
  const contract = await readFile(
    join(dir, "src/contexts/scheduling/domain/scheduling-errors.spec.ts"),
    "utf8",
  );
  for (
    const row of ["APPOINTMENT_EXISTS: 409,", "APPOINTMENT_NOT_FOUND: 404,", "SLOT_TAKEN: 409,"]
  ) {
    assert.ok(contract.includes(row), `${row} in\n${contract}`);
  }

  // Declaring a code again with its status changes nothing; with another status is refused.
  const before = await projectTree(dir);
  run = await kit(dir, ..."generate error-code scheduling SLOT_TAKEN --status 409".split(" "));
  assert.equal(run.result, 0);
  for (
    const [args, message] of [
      ["generate error-code scheduling SLOT_TAKEN --status 422", /declared with status 409/],
      ["generate error-code scheduling SLOT_TAKEN", /needs --status <4xx>/],
      ["generate error-code scheduling slot_taken --status 409", /upper snake case/],
      ["generate error-code scheduling SLOT_GONE --status 500", /answers 400-499/],
      ["generate error-code billing SLOT_GONE --status 409", /Unknown context 'billing'/],
    ] as const
  ) {
    const refused = await kit(dir, ...args.split(" "));
    assert.equal(refused.result, 1, args);
    assert.match(refused.stderr.join(" "), message);
  }
  assert.deepEqual(await projectTree(dir), before);

  // A code without a status does not type-check: `deno task verify` (deno check) fails.
  await runIn(dir, Deno.execPath(), ["check", path]);
  await writeFile(
    join(dir, path),
    declared.replace(
      'SLOT_TAKEN: { status: 409, description: "The slot is booked already" }',
      'SLOT_TAKEN: { description: "The slot is booked already" }',
    ),
  );
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", path],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(check.code, 1);
  assert.match(new TextDecoder().decode(check.stderr), /SLOT_TAKEN/);
});
