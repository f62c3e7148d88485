import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyPlan, type FileWrite, type PlanOperations } from "./file_plan.ts";

async function project(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "kit-plan-" });
  await mkdir(join(root, "src"), { recursive: true });
  await writeFile(join(root, "src/kept.ts"), "kept v1\n");
  await writeFile(join(root, "src/replaced.ts"), "replaced v1\n");
  await writeFile(join(root, "src/removed.ts"), "removed v1\n");
  return root;
}

/** Every file under the root with its contents. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(root.length + 1)] = await readFile(path, "utf8");
  }
  return out;
}

const plan: FileWrite[] = [
  { path: "src/replaced.ts", contents: "replaced v2\n" },
  { path: "src/new/created.ts", contents: "created\n", create: true },
  { path: "src/removed.ts", contents: "", remove: true },
  { path: "src/also.ts", contents: "also\n", create: true },
];

Deno.test("applyPlan writes, replaces and removes every file of the plan, leaving nothing aside", async () => {
  const root = await project();
  try {
    assert.deepEqual(await applyPlan(root, plan), [
      "src/also.ts",
      "src/new/created.ts",
      "src/removed.ts",
      "src/replaced.ts",
    ]);
    assert.deepEqual(await snapshot(root), {
      "src/kept.ts": "kept v1\n",
      "src/replaced.ts": "replaced v2\n",
      "src/new/created.ts": "created\n",
      "src/also.ts": "also\n",
    });
  } finally {
    await rm(root, { recursive: true });
  }
});

for (let failAt = 1; failAt <= 5; failAt++) {
  Deno.test(`applyPlan failing at its rename ${failAt} puts the project back as it was`, async () => {
    const root = await project();
    try {
      const before = await snapshot(root);
      let renames = 0;
      const failing: PlanOperations = {
        rename: (from, to) => {
          if (++renames === failAt) return Promise.reject(new Error("disk full"));
          return rename(from, to);
        },
        rm: (path) => rm(path, { force: true, recursive: true }),
      };
      await assert.rejects(() => applyPlan(root, plan, failing), /disk full/);
      assert.deepEqual(await snapshot(root), before, "every file as it was, no temporary left");
      assert.equal(existsSync(join(root, "src/new/created.ts")), false);
    } finally {
      await rm(root, { recursive: true });
    }
  });
}

Deno.test("applyPlan leaves a file whose bytes would not change alone, and answers only what it wrote", async () => {
  const root = await Deno.makeTempDir({ prefix: "kit-plan-" });
  try {
    await Deno.writeTextFile(`${root}/same.ts`, "same\n");
    await Deno.writeTextFile(`${root}/old.ts`, "old\n");
    const past = new Date("2020-01-01T00:00:00Z"); // any write would move it to now
    await Deno.utime(`${root}/same.ts`, past, past);
    const written = await applyPlan(root, [
      { path: "same.ts", contents: "same\n" },
      { path: "old.ts", contents: "new\n" },
      { path: "fresh.ts", contents: "fresh\n", create: true },
    ]);
    assert.deepEqual(written, ["fresh.ts", "old.ts"]);
    assert.deepEqual((await Deno.stat(`${root}/same.ts`)).mtime, past, "not touched");
    assert.equal(await Deno.readTextFile(`${root}/old.ts`), "new\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
