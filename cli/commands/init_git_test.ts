/**
 * `kit init` and git: the real executable run with an environment of the test's own (an empty
 * `HOME`, no system configuration, an identity or none, git on the `PATH` or not), so that what
 * the machine's git configuration says does not matter.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { preCommitHook } from "./init_git.ts";
import { kitExecutable, kitIn, projectTree, runIn } from "./test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const identity = {
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};

/** Where Deno caches modules: kept when `HOME` changes, so nothing is downloaded again. */
async function denoDir(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)).denoDir;
}

/**
 * `kit init <dir> --context lending:core` through the executable, in an environment holding only
 * `PATH`, `DENO_DIR`, an empty `HOME`, `GIT_CONFIG_NOSYSTEM` and `env`: its exit code and output.
 */
async function initIsolated(
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  const home = await Deno.makeTempDir({ prefix: "kit-home-" });
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      ...kitExecutable,
      "init",
      dir,
      "--context",
      "lending:core",
      "--link",
      checkout,
    ],
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      DENO_DIR: await denoDir(),
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(home, { recursive: true });
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

async function tempParent(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "kit-init-git-" }));
}

Deno.test("kit init makes a git repository whose one commit holds every file", async () => {
  const parent = await tempParent();
  const dir = join(parent, "lending");
  try {
    const { code, out } = await initIsolated(dir, identity);
    assert.equal(code, 0, out);
    assert.match(out, /^git: a new repository, every file in its first commit "kit init"$/m);
    assert.doesNotMatch(out, /git init|git commit/, "nothing left to run for git");
    assert.equal((await runIn(dir, "git", ["rev-list", "--count", "HEAD"])).trim(), "1");
    assert.equal((await runIn(dir, "git", ["log", "--format=%s %an"])).trim(), "kit init Ada");
    // Nothing left out of the commit but kit's own state (.kit/, ignored: the derivation cache).
    assert.equal(await runIn(dir, "git", ["status", "--porcelain", "--ignored"]), "!! .kit/\n");
    const files = Object.keys(await projectTree(dir)).sort();
    assert.ok(files.includes(".gitignore") && files.includes("deno.json"));
    assert.deepEqual((await runIn(dir, "git", ["ls-files"])).trim().split("\n").sort(), files);
    // The hook that refuses a staged conflict marker, executable, outside the tree git tracks.
    const hook = join(dir, ".git/hooks/pre-commit");
    assert.equal(await Deno.readTextFile(hook), preCommitHook);
    assert.equal((await Deno.stat(hook)).mode! & 0o111, 0o111);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("kit init --no-git makes no repository and says how to make one", async () => {
  const parent = await tempParent();
  try {
    const { result, out } = await kitIn(
      parent,
      "init",
      "lending",
      "--context",
      "lending:core",
      "--link",
      checkout,
      "--no-git",
    );
    assert.equal(result, 0, out);
    assert.equal(existsSync(join(parent, "lending/kit.config.json")), true);
    assert.equal(existsSync(join(parent, "lending/.git")), false);
    assert.match(out, /^ {2}git init && git add -A && git commit -m "kit init" /m);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("kit init without a git identity makes the repository, stages every file and says how to commit", async () => {
  const parent = await tempParent();
  const dir = join(parent, "lending");
  try {
    const { code, out } = await initIsolated(dir, {});
    assert.equal(code, 0, out);
    assert.match(out, /^git: repository made, every file staged, no commit: .*user\.email$/m);
    assert.match(
      out,
      /^ {2}git config user\.name .* && git config user\.email .* && git commit -m "kit init"$/m,
    );
    const head = await new Deno.Command("git", {
      args: ["rev-parse", "--verify", "HEAD"],
      cwd: dir,
      stderr: "null",
      stdout: "null",
    }).output();
    assert.notEqual(head.code, 0, "no commit");
    const staged = (await runIn(dir, "git", ["diff", "--cached", "--name-only"])).trim().split(
      "\n",
    );
    assert.deepEqual(staged.sort(), Object.keys(await projectTree(dir)).sort());
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("kit init without git installed lays out the project and says no repository was made", async () => {
  const parent = await tempParent();
  const dir = join(parent, "lending");
  try {
    const { code, out } = await initIsolated(dir, { ...identity, PATH: parent });
    assert.equal(code, 0, out);
    assert.match(out, /^git: not installed, no repository made$/m);
    assert.equal(existsSync(join(dir, "kit.config.json")), true);
    assert.equal(existsSync(join(dir, ".git")), false);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("kit init inside a git work tree makes no nested repository", async () => {
  const parent = await tempParent();
  try {
    await runIn(parent, "git", ["init", "-q"]);
    const { result, out } = await kitIn(
      parent,
      "init",
      "services/lending",
      "--context",
      "lending:core",
      "--link",
      checkout,
    );
    assert.equal(result, 0, out);
    assert.equal(existsSync(join(parent, "services/lending/kit.config.json")), true);
    assert.equal(existsSync(join(parent, "services/lending/.git")), false);
    assert.match(out, new RegExp(`^git: already in the repository at ${parent}: `, "m"));
    assert.equal((await runIn(parent, "git", ["rev-list", "--all", "--count"])).trim(), "0");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
