/**
 * `deno doc --lint` over every published entry point of kernel, http, jobs and cli, at once (so a
 * type one package exports and another names is public). Every error fails, except a public
 * signature naming a dependency's type (postgres.js, zod, jose, ioredis, Upstash, OpenTelemetry,
 * Standard Schema): deno doc cannot document another package's types, and kit hands those
 * clients through on purpose. Such references are counted, not hidden.
 *
 * Run by `deno task check`: `deno run -A tools/doc_lint.ts`.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const packages = ["kernel", "http", "jobs", "cli", "drizzle", "knex"];

const entries: string[] = [];
for (const name of packages) {
  const { exports } = JSON.parse(await readFile(join(root, name, "deno.json"), "utf8")) as {
    exports: string | Record<string, string>;
  };
  for (const entry of typeof exports === "string" ? [exports] : Object.values(exports)) {
    entries.push(join(name, entry));
  }
}

const output = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  cwd: root,
  env: { NO_COLOR: "1" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
const blocks = text.split(/\n(?=error\[)/).filter((block) => block.startsWith("error["));

/** Whether kit's own sources declare a type of this name (then a private reference is ours). */
const declaredHere = new Map<string, boolean>();
async function isOurs(name: string): Promise<boolean> {
  if (!declaredHere.has(name)) {
    const grep = await new Deno.Command("git", {
      args: [
        "grep",
        "-qE",
        `^\\s*(export\\s+)?(declare\\s+)?(interface|type|class|enum)\\s+${name}\\s*(<|=|\\{|extends|implements)`,
        "--",
        ...packages.map((p) => `${p}/*.ts`),
      ],
      cwd: root,
    }).output();
    declaredHere.set(name, grep.code === 0);
  }
  return declaredHere.get(name)!;
}

const failures: string[] = [];
const dependencies = new Set<string>();
for (const block of blocks) {
  const referenced = /references private type '([^'.]+)/.exec(block)?.[1];
  if (referenced !== undefined && !(await isOurs(referenced))) {
    dependencies.add(referenced);
    continue;
  }
  failures.push(block.trim());
}
if (failures.length > 0) {
  console.error(failures.join("\n\n"));
  console.error(`doc lint: ${failures.length} error(s) in ${entries.length} entry points`);
  Deno.exit(1);
}
if (output.code !== 0 && blocks.length === 0) {
  console.error(text);
  Deno.exit(1);
}
console.log(
  `doc lint: ${entries.length} entry points documented; dependency types named in public signatures: ${
    [...dependencies].sort().join(", ") || "none"
  }`,
);
