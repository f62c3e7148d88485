import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gitIn as git, initializedProject, kitIn as kit } from "./test_project.ts";

Deno.test({
  name:
    "kit resolve: two branches of one context merge by regenerating the derived files and uniting the regions; a conflict outside them is left and named",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--no-git"]);
    try {
      await git(dir, "init", "-q", "-b", "main");
      await git(dir, "add", ".");
      await git(dir, "commit", "-qm", "bootstrap");
      // Two workers of scheduling, each a command with a permission and an error code.
      for (
        const [branch, command, permission, code] of [
          ["left", "Confirm", "slot.confirm", "SLOT_TAKEN"],
          ["right", "Cancel", "slot.cancel", "ROOM_CLOSED"],
        ]
      ) {
        await git(dir, "checkout", "-qb", branch!, "main");
        for (
          const args of [
            ["command", "scheduling", command!, "--permission", permission!],
            ["error-code", "scheduling", code!, "--status", "409"],
          ]
        ) {
          const run = await kit(dir, "generate", ...args);
          assert.equal(run.result, 0, run.out);
        }
        await git(dir, "add", ".");
        await git(dir, "commit", "-qm", branch!);
      }
      await git(dir, "checkout", "-q", "main");
      assert.equal((await git(dir, "merge", "-q", "left")).code, 0);

      const merge = await git(dir, "merge", "--no-edit", "right");
      assert.notEqual(merge.code, 0, "the second branch conflicts");
      assert.match(
        merge.out,
        /CONFLICT \(content\): Merge conflict in src\/contexts\/scheduling\/scheduling\.declarations\.ts/,
      );
      assert.match(merge.out, /scheduling\.permissions\.ts/);

      const resolved = await kit(dir, "resolve");
      assert.equal(resolved.result, 0, resolved.out);
      // Each file named once: CONTEXT.md, merged in its regions, is not also "regenerated".
      const named = resolved.out.split("\n").filter((line) => !line.startsWith("review"))
        .map((line) => line.split(" ")[1]!);
      assert.deepEqual(named, [...new Set(named)], resolved.out);
      assert.match(resolved.out, /^merged src\/contexts\/scheduling\/CONTEXT\.md /m);
      assert.match(
        resolved.out,
        /regenerated src\/contexts\/scheduling\/scheduling\.declarations\.ts \(derived\)/,
      );
      assert.match(resolved.out, /merged src\/contexts\/scheduling\/scheduling\.permissions\.ts/);
      assert.match(resolved.out, /merged src\/contexts\/scheduling\/domain\/scheduling-errors\.ts/);
      const permissions = await readFile(
        join(dir, "src/contexts/scheduling/scheduling.permissions.ts"),
        "utf8",
      );
      assert.match(permissions, /"slot\.cancel"/);
      assert.match(permissions, /"slot\.confirm"/);
      assert.doesNotMatch(permissions, /^(<<<<<<<|=======|>>>>>>>)/m);
      const barrel = await readFile(
        join(dir, "src/contexts/scheduling/scheduling.declarations.ts"),
        "utf8",
      );
      assert.match(barrel, /ConfirmHandler,/);
      assert.match(barrel, /CancelHandler,/);
      assert.equal((await kit(dir, "docs", "--check")).result, 0, "every derived file current");
      await git(dir, "add", ".");
      assert.equal((await git(dir, "commit", "-qm", "merged")).code, 0);

      // Two branches edit the same line of a handler: kit leaves it to a person, names it, and
      // touches no derived file until it is merged.
      const handler = "src/contexts/scheduling/application/commands/confirm/confirm.handler.ts";
      const original = await readFile(join(dir, handler), "utf8");
      for (const branch of ["one", "two"]) {
        await git(dir, "checkout", "-qb", branch, "main");
        await writeFile(join(dir, handler), `// ${branch}\n${original}`);
        await kit(dir, "generate", "command", "scheduling", branch === "one" ? "Hold" : "Release");
        await git(dir, "add", ".");
        await git(dir, "commit", "-qm", branch);
      }
      await git(dir, "checkout", "-q", "main");
      assert.equal((await git(dir, "merge", "-q", "one")).code, 0);
      assert.notEqual((await git(dir, "merge", "--no-edit", "two")).code, 0);
      const left = await kit(dir, "resolve");
      assert.equal(left.result, 1);
      assert.match(
        left.out,
        new RegExp(`left ${handler.replaceAll(".", "\\.")}: conflicts outside kit's regions`),
      );
      assert.match(
        await readFile(join(dir, "src/contexts/scheduling/scheduling.declarations.ts"), "utf8"),
        /^<<<<<<< /m,
        "derived files wait for the sources",
      );
      await writeFile(join(dir, handler), `// one and two\n${original}`);
      await git(dir, "add", handler);
      const settled = await kit(dir, "resolve");
      assert.equal(settled.result, 0, settled.out);
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
