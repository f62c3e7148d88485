import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";

const root = new URL("../../", import.meta.url).pathname;

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await files(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

Deno.test("a context imports another context only through its published language", async () => {
  const contexts = join(root, "src/contexts");
  const offences: string[] = [];
  for (const file of await files(contexts)) {
    const own = relative(contexts, file).split("/")[0];
    const text = await readFile(file, "utf8");
    for (const [, specifier] of text.matchAll(/from\s+["']([^"']+)["']/g)) {
      const target = join(file, "..", specifier!);
      const rel = relative(contexts, target).split("/");
      if (!specifier!.startsWith(".") || rel[0] === ".." || rel[0] === own) continue;
      if (rel[1] !== "published-language") {
        offences.push(`${relative(root, file)} imports ${specifier}`);
      }
    }
  }
  assert.deepEqual(offences, []);
});
