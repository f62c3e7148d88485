/**
 * `kit generate command|query … --update`: the part of a message's spec that makes it follows its
 * inputs as they are now (its route's parts too, when it has a route); refusals write nothing.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject, kitIn as kit, runProgram } from "../commands/test_project.ts";

const commands = "src/contexts/scheduling/application/commands";

async function edit(dir: string, path: string, from: RegExp, to: string): Promise<void> {
  const text = await readFile(join(dir, path), "utf8");
  assert.match(text, from, path);
  await writeFile(join(dir, path), text.replace(from, to));
}

Deno.test({
  name:
    "kit generate command --update: its spec's message under test from its inputs, the rest kept; with a route, the route's parts too",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git"]);
    try {
      for (
        const args of [
          "aggregate scheduling Slot",
          "repository scheduling Slot",
          "command scheduling OpenSlot --aggregate Slot --creates",
          "command scheduling HoldSlot --aggregate Slot",
          "command scheduling MoveSlot --aggregate Slot",
          "route-group scheduling SlotRoutes",
          "route scheduling MoveSlot",
          "query scheduling ListSlots --aggregate Slot --search",
        ]
      ) {
        const run = await kit(dir, "generate", ...args.split(" "));
        assert.equal(run.result, 0, `${args}: ${run.out}`);
      }
      const hold = `${commands}/hold-slot/hold-slot`;
      await edit(
        dir,
        `${hold}.command.ts`,
        /readonly slotId: string/,
        "$&, readonly until: number",
      );
      await edit(dir, `${hold}.spec.ts`, /\/\*\* The version of/, "// Mine.\n$&");
      const updated = await kit(dir, ..."generate command scheduling HoldSlot --update".split(" "));
      assert.equal(updated.result, 0, updated.out);
      const spec = await readFile(join(dir, `${hold}.spec.ts`), "utf8");
      assert.match(spec, /return new HoldSlot\(actor, id, 1\);/);
      assert.match(spec, /\/\/ Mine\.\n\/\*\* The version of/);
      assert.match(spec, /`kit generate command scheduling HoldSlot --update`/);

      // A message with a route: its route follows too.
      const move = `${commands}/move-slot/move-slot`;
      await edit(dir, `${move}.command.ts`, /readonly slotId: string/, "$&, readonly room: string");
      const moved = await kit(dir, ..."generate command scheduling MoveSlot --update".split(" "));
      assert.equal(moved.result, 0, moved.out);
      assert.match(
        await readFile(join(dir, `${move}.spec.ts`), "utf8"),
        /return new MoveSlot\(actor, id, "room-1"\);/,
      );
      assert.match(
        await readFile(
          join(dir, "src/contexts/scheduling/presentation/http/move-slot.controller.ts"),
          "utf8",
        ),
        /room: z\.string\(\)/,
      );

      // A query: a filter added before the page.
      const list = "src/contexts/scheduling/application/queries/list-slots/list-slots";
      await edit(dir, `${list}.query.ts`, /readonly page = 1/, "readonly room: string, $&");
      const listed = await kit(dir, ..."generate query scheduling ListSlots --update".split(" "));
      assert.equal(listed.result, 0, listed.out);
      assert.match(
        await readFile(join(dir, `${list}.spec.ts`), "utf8"),
        /return new ListSlots\(actor, "room-1", page, pageSize\);/,
      );

      // A creating command's input the factory does not take: a value of its type, the id taken
      // from the builder's arguments (the spec imports them); it lints and type-checks.
      const open = `${commands}/open-slot/open-slot`;
      await edit(
        dir,
        `${open}.command.ts`,
        /readonly slotId: string/,
        "$&, readonly color: string",
      );
      const opened = await kit(dir, ..."generate command scheduling OpenSlot --update".split(" "));
      assert.equal(opened.result, 0, opened.out);
      assert.match(
        await readFile(join(dir, `${open}.spec.ts`), "utf8"),
        /const made = newSlotArguments\(id\);\n\s*return new OpenSlot\(actor, made\[0\], "color-1"\);/,
      );
      for (const tool of ["lint", "check"]) {
        const run = await runProgram(dir, Deno.execPath(), [tool, `${open}.spec.ts`]);
        assert.equal(run.code, 0, `deno ${tool}: ${run.out}`);
      }

      // Refusals, one line each, nothing written.
      const before = await readFile(join(dir, `${hold}.spec.ts`), "utf8");
      for (
        const [args, said] of [
          ["command scheduling HoldSlot --update --aggregate Slot", /drop --aggregate/],
          ["command scheduling Hold --update", /'Hold' does not exist in context 'scheduling'/],
          ["query scheduling HoldSlot --update", /'HoldSlot' does not exist/],
        ] as const
      ) {
        const refused = await kit(dir, "generate", ...args.split(" "));
        assert.equal(refused.result, 1, args);
        assert.match(refused.out, said);
        assert.equal(refused.out.trim().split("\n").length, 1, refused.out);
      }
      await writeFile(
        join(dir, `${hold}.spec.ts`),
        before.replace("// kit:begin message under test", "// made by hand"),
      );
      const unmarked = await kit(
        dir,
        ..."generate command scheduling HoldSlot --update".split(" "),
      );
      assert.equal(unmarked.result, 1);
      assert.match(
        unmarked.out,
        /has no '\/\/ kit:begin message under test' … '\/\/ kit:end' part/,
      );
      assert.equal(
        await readFile(join(dir, `${hold}.spec.ts`), "utf8"),
        before.replace("// kit:begin message under test", "// made by hand"),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
