/**
 * Exports by audience: each package's root entry point exports what an application author calls
 * and names, no more than its budget (`deno doc --json` counts the names: kernel 90, http 45,
 * jobs 35); every entry point of a package's `deno.json` says in a module doc whom it is for; a
 * name is exported by one entry point of its package only (a lint plugin's `default` aside; the
 * test clock from `/testing`, not from the root too); and the entries that are not API
 * (`/internal`, `@kit/jobs/store`) say so.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const packages = ["kernel", "http", "jobs", "cli", "drizzle", "knex"];

/** The most names each root entry point may export. */
const rootBudget: Readonly<Record<string, number>> = { kernel: 90, http: 45, jobs: 35 };

interface EntryDoc {
  readonly entry: string;
  readonly moduleDoc: string;
  readonly names: readonly string[];
}

function entriesOf(pkg: string): [string, string][] {
  const { exports } = JSON.parse(readFileSync(join(root, pkg, "deno.json"), "utf8")) as {
    exports: string | Record<string, string>;
  };
  return Object.entries(typeof exports === "string" ? { ".": exports } : exports);
}

async function documented(pkg: string, entry: string, file: string): Promise<EntryDoc> {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", join(pkg, file)],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) {
    throw new Error(`deno doc ${pkg}/${file}: ${new TextDecoder().decode(run.stderr)}`);
  }
  const json = JSON.parse(new TextDecoder().decode(run.stdout)) as {
    nodes: Record<string, { module_doc?: { doc?: string }; symbols: { name: string }[] }>;
  };
  const specifier = new URL(join(pkg, file), `file://${root}`).href;
  const node = json.nodes[specifier];
  assert.ok(node, `deno doc ${pkg}/${file} has no node for ${specifier}`);
  return {
    entry: `@kit/${pkg}${entry.slice(1)}`,
    moduleDoc: node.module_doc?.doc?.trim() ?? "",
    names: node.symbols.map((symbol) => symbol.name),
  };
}

const docs = new Map<string, EntryDoc[]>(
  await Promise.all(
    packages.map(async (pkg) =>
      [
        pkg,
        await Promise.all(entriesOf(pkg).map(([entry, file]) => documented(pkg, entry, file))),
      ] as const
    ),
  ),
);

Deno.test("each root entry point exports no more names than an application author's budget", () => {
  const over: string[] = [];
  for (const [pkg, budget] of Object.entries(rootBudget)) {
    const rootEntry = docs.get(pkg)!.find((doc) => doc.entry === `@kit/${pkg}`)!;
    if (rootEntry.names.length > budget) {
      over.push(`@kit/${pkg}: ${rootEntry.names.length} names (at most ${budget})`);
    }
  }
  assert.deepEqual(over, []);
});

Deno.test("every entry point of every package has a module doc", () => {
  const undocumented = [...docs.values()].flat().filter((doc) => doc.moduleDoc.length < 40)
    .map((doc) => doc.entry);
  assert.deepEqual(undocumented, []);
});

Deno.test("a name is exported by one entry point of its package", () => {
  const twice: string[] = [];
  for (const [pkg, entries] of docs) {
    const seen = new Map<string, string>();
    for (const doc of entries) {
      for (const name of doc.names.filter((name) => name !== "default")) {
        const first = seen.get(name);
        if (first !== undefined) twice.push(`${pkg}: ${name} from ${first} and ${doc.entry}`);
        seen.set(name, doc.entry);
      }
    }
  }
  assert.deepEqual(twice, []);
});

Deno.test("the test clock is exported by @kit/kernel/testing, not by the root", () => {
  const kernel = docs.get("kernel")!;
  assert.ok(kernel.find((doc) => doc.entry === "@kit/kernel/testing")!.names.includes("TestClock"));
  assert.ok(!kernel.find((doc) => doc.entry === "@kit/kernel")!.names.includes("TestClock"));
});

Deno.test("the entry points outside the application's API say so in their module doc", () => {
  const notApi = [...docs.values()].flat().filter((doc) =>
    doc.entry.endsWith("/internal") || doc.entry === "@kit/jobs/store"
  );
  assert.ok(notApi.length >= 2, `found ${notApi.map((doc) => doc.entry).join(", ")}`);
  for (const doc of notApi) {
    assert.match(doc.moduleDoc, /outside semver/, `${doc.entry}'s module doc`);
  }
});
