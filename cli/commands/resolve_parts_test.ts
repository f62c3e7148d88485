/**
 * `kit resolve` and the parts of generated files kit owns whole (`// kit:begin route schemas`,
 * `message under test`): two workers each add an input to one command and update its route; the
 * merge stops on the command (same line: a person merges it) and on the route and the specs (both
 * sides changed kit's parts). The first `kit resolve` leaves the command and keeps the generated
 * files' markers; the second rewrites their parts from the merged command: both inputs, once each,
 * in a deterministic order, every line outside the parts kept.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { settleParts } from "../files/merge_parts.ts";
import { gitIn as git, initializedProject, kitIn as kit } from "./test_project.ts";

async function edit(dir: string, path: string, from: RegExp, to: string): Promise<void> {
  const text = await readFile(join(dir, path), "utf8");
  assert.match(text, from, path);
  await writeFile(join(dir, path), text.replace(from, to));
}

const part = (name: string, body: string) => `x;\n// kit:begin ${name}\n${body}// kit:end\ny;\n`;

Deno.test("settleParts: a part one side changed takes it, one both changed alike keeps it", () => {
  const base = part("route schemas", "a\n");
  const changed = part("route schemas", "a\nb\n");
  for (
    const sides of [
      { base, ours: base, theirs: changed },
      { base, ours: changed, theirs: base },
      { base, ours: changed, theirs: changed },
    ]
  ) {
    const settled = settleParts(sides);
    assert.deepEqual(settled.clashing, []);
    assert.deepEqual(settled.sides, { base: changed, ours: changed, theirs: changed });
  }
});

Deno.test("settleParts: a part both changed differently keeps ours and is named; the rest is untouched", () => {
  const base = `top\n${part("route schemas", "a\n")}${part("permissions", "p\n")}`;
  const ours = `top ours\n${part("route schemas", "a\nb\n")}${part("permissions", "p\nq\n")}`;
  const theirs = `top\n${part("route schemas", "a\nc\n")}${part("permissions", "p\nr\n")}`;
  const settled = settleParts({ base, ours, theirs });
  assert.deepEqual(settled.clashing, ["route schemas"]);
  assert.equal(
    settled.sides.theirs,
    `top\n${part("route schemas", "a\nb\n")}${part("permissions", "p\nr\n")}`,
    "one-word regions are left to mergeRegions (sets of entries)",
  );
  assert.equal(settled.sides.ours, ours);
  assert.equal(
    settled.sides.base,
    `top\n${part("route schemas", "a\nb\n")}${part("permissions", "p\n")}`,
  );
});

Deno.test({
  name:
    "kit resolve: a route and specs whose kit parts both sides changed are rewritten from the merged command, after a person merges it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git"]);
    try {
      await git(dir, "init", "-q", "-b", "main");
      for (
        const args of [
          "aggregate scheduling Slot",
          "repository scheduling Slot",
          "command scheduling OpenSlot --aggregate Slot --creates",
          "command scheduling HoldSlot --aggregate Slot",
          "route-group scheduling SlotRoutes",
          "route scheduling OpenSlot",
          "route scheduling HoldSlot",
        ]
      ) {
        const run = await kit(dir, "generate", ...args.split(" "));
        assert.equal(run.result, 0, `${args}: ${run.out}`);
      }
      await git(dir, "add", ".");
      assert.equal((await git(dir, "commit", "-qm", "bootstrap")).code, 0);
      const commands = "src/contexts/scheduling/application/commands";
      const hold = `${commands}/hold-slot/hold-slot.command.ts`;
      const holdSpec = `${commands}/hold-slot/hold-slot.spec.ts`;
      const route = "src/contexts/scheduling/presentation/http/hold-slot.controller.ts";
      const routeSpec = route.replace(/\.ts$/, ".spec.ts");
      // Each worker adds an input to HoldSlot (the same line) and updates its route.
      for (const [branch, input] of [["left", "reason: string"], ["right", "seats: number"]]) {
        await git(dir, "checkout", "-qb", branch!, "main");
        await edit(dir, hold, /readonly slotId: string/, `$&, readonly ${input}`);
        const updated = await kit(dir, ..."generate route scheduling HoldSlot --update".split(" "));
        assert.equal(updated.result, 0, updated.out);
        await git(dir, "add", ".");
        assert.equal((await git(dir, "commit", "-qm", branch!)).code, 0);
      }
      await git(dir, "checkout", "-q", "main");
      assert.equal((await git(dir, "merge", "-q", "left")).code, 0);
      const merge = await git(dir, "merge", "--no-edit", "right");
      assert.notEqual(merge.code, 0, "the second branch conflicts");
      for (const file of [hold, holdSpec, route]) {
        assert.match(merge.out, new RegExp(`Merge conflict in ${file.replaceAll(".", "\\.")}`));
      }

      // First pass: the command is a person's; the generated files wait for it, markers kept.
      const first = await kit(dir, "resolve");
      assert.equal(first.result, 1, first.out);
      assert.match(first.out, new RegExp(`^left ${hold.replaceAll(".", "\\.")}: `, "m"));
      for (const file of [holdSpec, route]) {
        assert.match(
          first.out,
          new RegExp(`^waits ${file.replaceAll(".", "\\.")}: kit parts both sides changed`, "m"),
        );
        assert.match(await readFile(join(dir, file), "utf8"), /^<<<<<<< /m, file);
      }

      // A person merges the command (both inputs); a hand line outside the route's parts stays.
      const command = await readFile(join(dir, hold), "utf8");
      await writeFile(
        join(dir, hold),
        command.replace(
          /<<<<<<< [^\n]*\n[^\n]*\n=======\n[^\n]*\n>>>>>>> [^\n]*\n/,
          "  constructor(actor: Actor, readonly slotId: string, readonly reason: string, readonly seats: number) {\n",
        ),
      );
      const second = await kit(dir, "resolve");
      assert.equal(second.result, 0, second.out);
      for (const file of [holdSpec, route]) {
        assert.match(second.out, new RegExp(`^rewrote ${file.replaceAll(".", "\\.")} `, "m"));
        assert.doesNotMatch(await readFile(join(dir, file), "utf8"), /^(<{7}|={7}|>{7})/m);
      }
      assert.match(second.out, /^review and stage: git add .*hold-slot\.controller\.ts/m);
      const controller = await readFile(join(dir, route), "utf8");
      assert.equal(controller.match(/reason: z\.string\(\)/g)?.length, 1, controller);
      assert.equal(controller.match(/seats: z\.number\(\)/g)?.length, 1, controller);
      assert.ok(
        controller.indexOf("reason:") < controller.indexOf("seats:"),
        "the message's order",
      );
      assert.match(
        await readFile(join(dir, holdSpec), "utf8"),
        /return new HoldSlot\(actor, id, "reason-1", 1\);/,
      );
      assert.match(await readFile(join(dir, routeSpec), "utf8"), /reason: "reason-1"/);
      // The same merge again gives the same bytes: the parts follow the merged command alone.
      const rewritten = await readFile(join(dir, route), "utf8");
      const check = await kit(dir, "generate", ..."route scheduling HoldSlot --update".split(" "));
      assert.equal(check.result, 0, check.out);
      assert.equal(await readFile(join(dir, route), "utf8"), rewritten);
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
      await git(dir, "add", ".");
      assert.equal((await git(dir, "commit", "-qm", "merged")).code, 0);

      // Merged into an input kit cannot write a schema for (a Date): the parts are not rewritten,
      // git's markers stay in the route, one line says why.
      const main = await git(dir, "rev-parse", "HEAD");
      for (const [branch, input] of [["three", "note: string"], ["four", "size: number"]]) {
        await git(dir, "checkout", "-qb", branch!, main.out.trim());
        await edit(dir, hold, /readonly seats: number/, `$&, readonly ${input}`);
        const updated = await kit(dir, ..."generate route scheduling HoldSlot --update".split(" "));
        assert.equal(updated.result, 0, updated.out);
        await git(dir, "add", ".");
        assert.equal((await git(dir, "commit", "-qm", branch!)).code, 0);
      }
      await git(dir, "checkout", "-q", "main");
      assert.equal((await git(dir, "merge", "-q", "three")).code, 0);
      assert.notEqual((await git(dir, "merge", "--no-edit", "four")).code, 0);
      const conflicted = await readFile(join(dir, hold), "utf8");
      await writeFile(
        join(dir, hold),
        conflicted.replace(
          /<<<<<<< [^\n]*\n[^\n]*\n=======\n[^\n]*\n>>>>>>> [^\n]*\n/,
          "  constructor(actor: Actor, readonly slotId: string, readonly reason: string, readonly seats: number, readonly when: Date) {\n",
        ),
      );
      const refused = await kit(dir, "resolve");
      assert.equal(refused.result, 1);
      assert.equal(refused.out.trim().split("\n").length, 1, refused.out);
      assert.match(
        refused.out,
        /kit's parts of .*hold-slot\.controller\.ts.* changed on both sides, and rewriting them from the merged sources failed \(.*when.*\): merge them by hand/,
      );
      assert.match(await readFile(join(dir, route), "utf8"), /^<<<<<<< /m, "git's text put back");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
