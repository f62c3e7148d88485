/**
 * Helpers for the CLI's tests: a project made by `kit init --link` in a temporary folder, a
 * snapshot of its files, commands run in it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../main.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The arguments after `deno` that run kit's executable as `deno install -g -n kit` would (this
 * checkout's `cli/main.ts` under its `deno.json`).
 */
export const kitExecutable: readonly string[] = [
  "run",
  "-A",
  "--quiet",
  "--config",
  join(checkout, "deno.json"),
  join(checkout, "cli/main.ts"),
];

/**
 * The `kit` command lines of the first hour's lending slice, with no line written by hand: a
 * context, `Loan` and its repository, `OpenLoan` (creates a loan; `loan.open` granted to
 * `lender`), `ListLoans` (a page of loans; `loan.read` granted to `lender`), the group `/loans` and
 * a route for each.
 */
export const lendingSlice: readonly (readonly string[])[] = [
  ["generate", "context", "lending", "--kind", "core"],
  ["generate", "aggregate", "lending", "Loan"],
  ["generate", "repository", "lending", "Loan"],
  [
    ..."generate command lending OpenLoan --aggregate Loan --creates".split(" "),
    ..."--permission loan.open --grant lender".split(" "),
  ],
  [
    ..."generate query lending ListLoans --search --aggregate Loan".split(" "),
    ..."--permission loan.read --grant lender".split(" "),
  ],
  ["generate", "route-group", "lending", "LoanRoutes"],
  ["generate", "route", "lending", "OpenLoan"],
  ["generate", "route", "lending", "ListLoans"],
];

/** Every file under `root` (its git repository aside), by relative path, with its contents. */
export async function projectTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      // The repository kit init makes is git's; kit's cache of derived files is its own state,
      // ignored by git (`.kit/` in .gitignore).
      if (entry.isDirectory()) {
        if (relative(root, path) !== ".git") await walk(path);
      } else if (relative(root, path) !== ".kit/derived-cache.json") {
        out[relative(root, path)] = await readFile(path, "utf8");
      }
    }
  }
  await walk(root);
  return out;
}

/** Runs `fn` with console.log silenced, collecting console.error lines. */
export async function quietly<T>(fn: () => Promise<T>): Promise<{ result: T; stderr: string[] }> {
  const stderr: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = () => {};
  console.error = (...args: unknown[]) => void stderr.push(args.join(" "));
  try {
    return { result: await fn(), stderr };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** The `kit init` options of the clinic the CLI's tests build: identity, scheduling, notifications. */
export const clinicContexts: readonly string[] = [
  "--context",
  "identity:supporting",
  "--context",
  "scheduling:core",
  "--context",
  "notifications:generic",
];

/**
 * A new project (contexts identity, notifications, scheduling) linking this checkout, made with
 * the options given (`--queue redis`).
 */
export async function initializedProject(options: readonly string[] = []): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kit-init-" });
  const { result } = await quietly(() =>
    main(["init", dir, ...clinicContexts, "--link", checkout, ...options])
  );
  assert.equal(result, 0);
  return dir;
}

/** `git <args>` in `cwd` as a test author (no global identity needed): exit code and output. */
export async function gitIn(
  cwd: string,
  ...args: string[]
): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

/** `kit <args>` run in process at `/`: its exit code, and what it printed to stdout and stderr. */
export async function printed(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const [log, error] = [console.log, console.error];
  console.log = (...parts: unknown[]) => void (out += parts.join(" ") + "\n");
  console.error = (...parts: unknown[]) => void (err += parts.join(" ") + "\n");
  try {
    return { code: await main(args, "/"), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** Runs a program in `dir`, colourless: its exit code and its output (stdout then stderr). */
export async function runProgram(
  dir: string,
  program: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(program, {
    args: [...args],
    cwd: dir,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

/** Runs a program in `dir`; fails with its output unless it exits 0; answers its output. */
export async function runIn(
  dir: string,
  program: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const { code, out } = await runProgram(dir, program, args, env);
  assert.equal(code, 0, `${program} ${args.join(" ")} failed:\n${out}`);
  return out;
}

/** `kit <args>` run in process in `dir`: its exit code and every line it printed, in order. */
export function kitIn(
  dir: string,
  ...args: string[]
): Promise<{ result: number; out: string }> {
  return kitWithEnv(dir, (name) => Deno.env.get(name), ...args);
}

/**
 * As {@linkcode kitIn}, the command reading its environment from `env` instead of the process's
 * (test files run in parallel in one process: none may change the process's environment).
 */
export async function kitWithEnv(
  dir: string,
  env: (name: string) => string | undefined,
  ...args: string[]
): Promise<{ result: number; out: string }> {
  const out: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = console.error = (...parts: unknown[]) => void out.push(parts.join(" "));
  try {
    return { result: await main(args, dir, env), out: out.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/**
 * Rewrites the creating migration at `path` in `root` as kit generated it before ids per tenant
 * (the table `schema.table` keyed by `id` alone), so that a test can re-key it; answers the
 * migration's new text.
 */
export async function keyedByIdAlone(
  root: string,
  path: string,
  schema: string,
  table: string,
): Promise<string> {
  const current = await readFile(join(root, path), "utf8");
  const name = `"${schema}"."${table}"`;
  const before = current.replace(
    new RegExp(`create table if not exists "${schema}"\\."${table}" \\([\\s\\S]*?\\n\\);\\n`),
    `create table if not exists ${name} (
  id text primary key,
  tenant_id text not null,
  data jsonb not null default '{}'::jsonb,
  version integer not null check (version > 0)
);
create index if not exists "${table}_tenant_id" on ${name} (tenant_id);
`,
  );
  assert.notEqual(before, current, `${path} holds the table ${name}`);
  await writeFile(join(root, path), before);
  return before;
}
