/**
 * docs/workflow.md keeps what issue #30 asked of it: the spec's slicing rules (by bounded context
 * or by vertical use case inside one, never by layer) and the migrations of parallel branches,
 * with the commands that settle a clash as the CLI names them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const workflow = readFileSync(`${root}docs/workflow.md`, "utf8");

/** The text of the section whose heading starts with `heading`, up to the next `## `. */
function section(heading: string): string {
  const at = workflow.indexOf(`\n## ${heading}`);
  assert.notEqual(at, -1, `docs/workflow.md has a section '## ${heading}'`);
  const end = workflow.indexOf("\n## ", at + 1);
  return workflow.slice(at, end === -1 ? undefined : end).replaceAll(/\s+/g, " ");
}

/** What `kit <args>` prints. */
async function kit(...args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}cli/main.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return decode(output.stdout) + decode(output.stderr);
}

Deno.test("docs/workflow.md states the spec's slicing rules", () => {
  const slicing = section("4. The slice plan");
  assert.match(slicing, /by bounded context \(one worker, one context/);
  assert.match(slicing, /by vertical use case inside a context/);
  assert.match(slicing, /never by layer/);
});

Deno.test("docs/workflow.md covers migrations of parallel branches with the CLI's own commands", async () => {
  const migrations = section("8. Migrations");
  assert.match(migrations, /both take `0002`/);
  assert.match(migrations, /`kit resolve` applies it/);
  assert.match(migrations, /fails `kit docs --check`, `kit docs` and so `deno task verify`/);
  assert.match(migrations, /kit resolve --renumber <file>/);
  assert.match(await kit("resolve", "--help"), /--renumber <migration>/);
  // And section 7, the merge recipe, points at it.
  assert.match(section("7. A conflict"), /migrations? under one number/);
});
