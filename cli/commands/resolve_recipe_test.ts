/**
 * The recipe of docs/workflow.md, section 7, run line by line as the document writes it, in a
 * project `kit init` made a git repository (its pre-commit hook installed): two workers of one
 * context, each a command and the same line of a handler changed, merged.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { preCommitHook } from "./init_git.ts";
import { gitIn as git, initializedProject, kitIn as kit } from "./test_project.ts";

const workflow = fileURLToPath(new URL("../../docs/workflow.md", import.meta.url));
const handler = "src/contexts/scheduling/application/commands/confirm/confirm.handler.ts";
const barrel = "src/contexts/scheduling/scheduling.declarations.ts";

async function task(cwd: string, name: string): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", name],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

/** The lines of the first `sh` block of a section of docs/workflow.md. */
async function recipe(section: string): Promise<string[]> {
  const text = await readFile(workflow, "utf8");
  const body = text.slice(text.indexOf(`\n## ${section}`));
  const block = /```sh\n([\s\S]*?)```/.exec(body)?.[1];
  assert.ok(block, `section ${section} has a sh block`);
  return block.split("\n").filter((line) => line.trim() !== "");
}

/**
 * A project on `main` with the command Confirm, and two branches of the scheduling worker from
 * it, `build/scheduling-hold` (merged into main) and `build/scheduling-release`, each adding a
 * command with a permission and a line at the top of Confirm's handler.
 */
async function twoWorkers(): Promise<{ dir: string; original: string }> {
  const dir = await initializedProject([]);
  if ((await git(dir, "rev-parse", "--verify", "HEAD")).code !== 0) {
    assert.equal((await git(dir, "commit", "-qm", "kit init")).code, 0, "no git identity here");
  }
  assert.equal(
    (await kit(dir, "generate", "command", "scheduling", "Confirm", "--permission", "slot.confirm"))
      .result,
    0,
  );
  await git(dir, "add", "-A");
  assert.equal((await git(dir, "commit", "-qm", "Confirm")).code, 0);
  const main = (await git(dir, "branch", "--show-current")).out.trim();
  const original = await readFile(join(dir, handler), "utf8");
  for (const name of ["Hold", "Release"]) {
    const branch = `build/scheduling-${name.toLowerCase()}`;
    await git(dir, "checkout", "-qb", branch, main);
    await writeFile(join(dir, handler), `// ${name}: one line of a hand edit\n${original}`);
    const run = await kit(
      dir,
      ..."generate command scheduling".split(" "),
      name,
      "--permission",
      `slot.${name.toLowerCase()}`,
    );
    assert.equal(run.result, 0, run.out);
    await git(dir, "add", "-A");
    assert.equal((await git(dir, "commit", "-qm", name)).code, 0);
  }
  await git(dir, "checkout", "-q", main);
  assert.equal((await git(dir, "merge", "-q", "build/scheduling-hold")).code, 0);
  return { dir, original };
}

const handMerged = (original: string) =>
  `// Hold: one line of a hand edit\n// Release: one line of a hand edit\n${original}`;

Deno.test({
  name:
    "docs/workflow.md section 7 works as written: merge, kit resolve, the hand merge, kit resolve again before git add, the listed files staged and committed, verify and test",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, original } = await twoWorkers();
    try {
      const steps = await recipe("7.");
      // The test knows each line of the recipe, in this order; a line it does not know fails it.
      assert.deepEqual(
        steps.map((line) => line.split(/\s+#/)[0]!.trim()),
        [
          "git merge build/scheduling-release",
          "kit resolve",
          "$EDITOR <each file kit resolve left>",
          "kit resolve",
          "git diff",
          "git add <the files kit resolve listed> && git commit --no-edit",
          "deno task verify && deno task test",
        ],
      );
      let resolved = "";
      let resolves = 0;
      for (const step of steps) {
        const command = step.split(/\s+#/)[0]!.trim();
        if (command.startsWith("git merge ")) {
          const merge = await git(dir, "merge", "--no-edit", command.split(" ")[2]!);
          assert.notEqual(merge.code, 0, "the merge stops");
          assert.match(
            merge.out,
            /CONFLICT \(content\): Merge conflict in .*scheduling\.declarations\.ts/,
          );
          assert.match(
            merge.out,
            /CONFLICT \(content\): Merge conflict in .*scheduling\.permissions\.ts/,
          );
          assert.match(merge.out, /CONFLICT \(content\): Merge conflict in .*confirm\.handler\.ts/);
        } else if (command === "kit resolve") {
          const run = await kit(dir, "resolve");
          resolved = run.out;
          resolves += 1;
          if (resolves === 1) {
            assert.equal(run.result, 1, run.out);
            assert.match(
              run.out,
              new RegExp(`^left ${RegExp.escape(handler)}: conflicts outside kit's regions`, "m"),
            );
            assert.match(
              run.out,
              /^merged src\/contexts\/scheduling\/scheduling\.permissions\.ts /m,
            );
            assert.match(
              await readFile(join(dir, barrel), "utf8"),
              /^<<<<<<< /m,
              "derived files wait",
            );
          } else {
            // Nothing staged in between: the handler is still "both modified" to git.
            assert.equal(run.result, 0, run.out);
            assert.match(run.out, new RegExp(`^kept ${RegExp.escape(handler)} `, "m"));
            assert.match(
              run.out,
              new RegExp(`^regenerated ${RegExp.escape(barrel)} \\(derived\\)$`, "m"),
            );
            assert.match(run.out, /^review and stage: git add /m);
          }
        } else if (command.startsWith("$EDITOR")) {
          const left = [...resolved.matchAll(/^left (\S+): /gm)].map((m) => m[1]!);
          assert.deepEqual(left, [handler]);
          await writeFile(join(dir, handler), handMerged(original));
        } else if (command === "git diff") {
          assert.equal((await git(dir, "diff")).code, 0);
        } else if (command.startsWith("git add ")) {
          const listed = /^review and stage: git add (.+)$/m.exec(resolved)![1]!.split(" ");
          assert.equal((await git(dir, "add", ...listed)).code, 0);
          const commit = await git(dir, "commit", "--no-edit");
          assert.equal(commit.code, 0, commit.out);
          assert.equal((await git(dir, "status", "--porcelain")).out, "", "it listed every file");
        } else if (command === "deno task verify && deno task test") {
          // verify's merge-related step (kit docs --check: derived files current, no conflict
          // marker; verify_task_test.ts), then the specs, which type-check the merged handler.
          const check = await kit(dir, "docs", "--check");
          assert.equal(check.result, 0, check.out);
          const run = await task(dir, "test");
          assert.equal(run.code, 0, run.out);
        } else assert.fail(`a step the test does not know: ${step}`);
      }
      const barrelText = await readFile(join(dir, barrel), "utf8");
      assert.match(barrelText, /HoldHandler,/);
      assert.match(barrelText, /ReleaseHandler,/);
      assert.equal(await readFile(join(dir, handler), "utf8"), handMerged(original));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a git add -A before the files are merged stages conflict markers: the pre-commit hook refuses the commit, docs --check names them, kit resolve settles them once the source is merged",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, original } = await twoWorkers();
    try {
      assert.notEqual((await git(dir, "merge", "--no-edit", "build/scheduling-release")).code, 0);
      assert.equal((await kit(dir, "resolve")).result, 1);
      await git(dir, "add", "-A");
      const refused = await git(dir, "commit", "--no-edit");
      assert.notEqual(refused.code, 0, "the hook refuses the commit");
      assert.match(refused.out, new RegExp(`^${RegExp.escape(barrel)}:\\d+:<<<<<<< `, "m"));
      assert.match(refused.out, new RegExp(`^${RegExp.escape(handler)}:\\d+:<<<<<<< `, "m"));
      assert.match(refused.out, /pre-commit: the staged lines above are conflict markers/);

      const check = await kit(dir, "docs", "--check");
      assert.equal(check.result, 1);
      assert.match(
        check.out,
        new RegExp(
          `^error conflict-markers: ${RegExp.escape(handler)}:\\d+ holds a conflict marker`,
          "m",
        ),
      );
      assert.match(
        check.out,
        new RegExp(`^error conflict-markers: ${RegExp.escape(barrel)}:\\d+ `, "m"),
      );

      // Staged, the handler is no conflict to git any more; kit still finds its markers.
      const early = await kit(dir, "resolve");
      assert.equal(early.result, 1, early.out);
      assert.match(
        early.out,
        new RegExp(
          `^left ${RegExp.escape(handler)}:\\d+: a conflict marker git no longer lists`,
          "m",
        ),
      );
      assert.match(await readFile(join(dir, barrel), "utf8"), /^<<<<<<< /m, "nothing derived yet");

      await writeFile(join(dir, handler), handMerged(original));
      const settled = await kit(dir, "resolve");
      assert.equal(settled.result, 0, settled.out);
      assert.match(
        settled.out,
        new RegExp(`^regenerated ${RegExp.escape(barrel)} \\(derived\\)$`, "m"),
      );
      assert.equal((await kit(dir, "docs", "--check")).result, 0);
      await git(dir, "add", "-A");
      const commit = await git(dir, "commit", "--no-edit");
      assert.equal(commit.code, 0, commit.out);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("the pre-commit hook docs/workflow.md tells a clone to install is the one kit init installs", async () => {
  const text = await readFile(workflow, "utf8");
  const shown = /cat > \.git\/hooks\/pre-commit <<'HOOK'\n([\s\S]*?)HOOK\n/.exec(text)?.[1];
  assert.equal(shown, preCommitHook);
});
