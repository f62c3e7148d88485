import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readSlicePlan } from "../project/slice_plan.ts";
import { initializedProject, kitIn as kit } from "./test_project.ts";

Deno.test("kit slice add and done keep the slice plan, the conductor's only; bad input is refused and writes nothing", async () => {
  const dir = await initializedProject();
  try {
    const plan = join(dir, "docs/architecture/slices.md");
    const before = await readSlicePlan(dir);
    const scheduling = before.find((row) => row.context === "scheduling")!;
    const added = await kit(
      dir,
      "slice",
      "add",
      "scheduling",
      "slice",
      "Book an appointment",
      "--start-with",
      "kit generate command scheduling BookAppointment",
      "--depends-on",
      String(scheduling.number),
      "--owner",
      "scheduling worker",
    );
    assert.equal(added.result, 0, added.out);
    const number = before.length + 1;
    assert.equal(added.out, `kit slice: row ${number} (Book an appointment) added, todo`);
    assert.deepEqual((await readSlicePlan(dir)).at(-1), {
      number,
      context: "scheduling",
      kind: "slice",
      slice: "Book an appointment",
      startWith: "`kit generate command scheduling BookAppointment`",
      dependsOn: String(scheduling.number),
      owner: "scheduling worker",
      status: "todo",
    });
    const written = await readFile(plan, "utf8");

    // Each refusal: one line, exit 1, the plan unchanged.
    for (
      const [args, message] of [
        [["slice", "done", String(number)], `depends on row ${scheduling.number}, not done yet`],
        [["slice", "done", "99"], "the slice plan has no row 99"],
        [["slice", "done", "x"], "'x' is not a row number"],
        [["slice", "add", "billing", "slice", "Bill"], "unknown context 'billing'"],
        [["slice", "add", "scheduling", "epic", "Bill"], "kind 'epic' is not one of"],
        [["slice", "add", "scheduling", "slice", "A | B"], "title cannot hold '|'"],
        [["slice", "add", "scheduling", "slice", "B", "--depends-on", "42"], "names no row 42"],
        [["slice", "add", "scheduling", "slice"], "Usage: kit slice add"],
      ] as const
    ) {
      const run = await kit(dir, ...args);
      assert.equal(run.result, 1, args.join(" "));
      assert.match(run.out, new RegExp(RegExp.escape(message)), args.join(" "));
      assert.equal(run.out.split("\n").length, 1, `one line: ${run.out}`);
      assert.equal(await readFile(plan, "utf8"), written, `${args.join(" ")} wrote nothing`);
    }

    // A row and its dependency done in one call; the plan's other rows untouched.
    const done = await kit(dir, "slice", "done", String(scheduling.number), String(number));
    assert.equal(done.result, 0, done.out);
    const after = await readSlicePlan(dir);
    assert.deepEqual(
      after.filter((row) => row.status === "done").map((row) => row.number),
      [1, scheduling.number, number],
    );
    assert.deepEqual(
      after.filter((row) => ![scheduling.number, number].includes(row.number)),
      before.filter((row) => row.number !== scheduling.number),
    );

    // In a worker's worktree the plan is not the worker's to edit.
    await mkdir(join(dir, ".kit"), { recursive: true });
    await writeFile(join(dir, ".kit/worker.json"), JSON.stringify({ context: "scheduling" }));
    const refused = await kit(dir, "slice", "add", "scheduling", "slice", "More");
    assert.equal(refused.result, 1);
    assert.match(refused.out, /only the conductor edits the slice plan/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a slice added without --start-with or --depends-on is briefed with no empty clause", async () => {
  const dir = await initializedProject(["--no-git"]);
  try {
    for (
      const args of [["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "bootstrap"]]
    ) {
      const output = await new Deno.Command("git", {
        args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
        cwd: dir,
        stdout: "null",
        stderr: "null",
      }).output();
      assert.equal(output.code, 0, args.join(" "));
    }
    assert.equal((await kit(dir, "slice", "add", "scheduling", "slice", "Rooms")).result, 0);
    const number = (await readSlicePlan(dir)).at(-1)!.number;
    assert.equal(
      (await kit(
        dir,
        ..."slice add scheduling slice Book --start-with".split(" "),
        "kit generate command scheduling Book",
        "--depends-on",
        String(number),
      )).result,
      0,
    );
    const briefed = await kit(dir, "worker-scope", "scheduling", "--dry-run");
    assert.equal(briefed.result, 0, briefed.out);
    assert.match(briefed.out, new RegExp(`^  #${number} \\[todo\\] slice: Rooms$`, "m"));
    assert.match(
      briefed.out,
      new RegExp(
        `^  #${
          number + 1
        } \\[todo\\] slice: Book \\(start with \`kit generate command scheduling Book\`\\) \\(after #${number}\\)$`,
        "m",
      ),
    );
    assert.doesNotMatch(briefed.out, /start with \)|\(after #\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
