/**
 * No API newer than the runtimes kit supports (Node 20, Deno 2, workerd) in library code (kernel,
 * http, jobs, drizzle, knex) or in the code kit generates (the templates of cli/templates,
 * cli/generators and cli/project): each API below is missing on Node 20, where a call fails only
 * when it runs (a generated in-memory repository calling `Promise.try` answered 500 on Node 20).
 * Comments are left out; tests are too (they run on Deno). When Node 20 is on the PATH, the list
 * is checked against it: each API named must be missing there, or it would not belong in the list.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

/** The library packages, and the directories of the templates kit generates code from. */
const scanned = [
  "kernel",
  "http",
  "jobs",
  "drizzle",
  "knex",
  "cli/generators",
  "cli/project",
  "cli/templates",
];

/** An API Node 20 lacks: how it is found in source, and how Node tells it is missing. */
interface NewerApi {
  readonly name: string;
  readonly pattern: RegExp;
  /** An expression that is `undefined` (or throws) where the API is missing. */
  readonly probe: string;
}

const setMethods = [
  "union",
  "intersection",
  "difference",
  "symmetricDifference",
  "isSubsetOf",
  "isSupersetOf",
  "isDisjointFrom",
];

/** The APIs missing on Node 20 (checked with `node -e` on Node 20.20). */
const newerApis: readonly NewerApi[] = [
  { name: "Promise.try", pattern: /\bPromise\.try\b/, probe: "Promise.try" },
  {
    name: "Promise.withResolvers",
    pattern: /\bPromise\.withResolvers\b/,
    probe: "Promise.withResolvers",
  },
  { name: "Array.fromAsync", pattern: /\bArray\.fromAsync\b/, probe: "Array.fromAsync" },
  { name: "Object.groupBy", pattern: /\bObject\.groupBy\b/, probe: "Object.groupBy" },
  { name: "Map.groupBy", pattern: /\bMap\.groupBy\b/, probe: "Map.groupBy" },
  ...setMethods.map((method) => ({
    name: `Set.prototype.${method}`,
    // zod's z.union and z.intersection are no Set methods.
    pattern: new RegExp(`(?<!\\bz)\\.${method}\\(`),
    probe: `Set.prototype.${method}`,
  })),
  { name: "Iterator helpers (Iterator.from)", pattern: /\bIterator\.from\b/, probe: "Iterator" },
  {
    name: "Iterator helpers (Iterator.prototype)",
    pattern: /\bIterator\.prototype\b/,
    probe: "Iterator",
  },
  {
    name: "Iterator helpers (.values().map() and the like)",
    pattern:
      /\.(?:values|keys|entries)\(\)\s*\.(?:map|filter|take|drop|flatMap|reduce|toArray|forEach|some|every|find)\(/,
    probe: "new Map().values().map",
  },
  { name: "RegExp.escape", pattern: /\bRegExp\.escape\b/, probe: "RegExp.escape" },
  { name: "Error.isError", pattern: /\bError\.isError\b/, probe: "Error.isError" },
  { name: "Math.sumPrecise", pattern: /\bMath\.sumPrecise\b/, probe: "Math.sumPrecise" },
  { name: "Float16Array", pattern: /\bFloat16Array\b/, probe: "globalThis.Float16Array" },
  {
    name: "Uint8Array base64 and hex",
    pattern: /\bUint8Array\.from(?:Base64|Hex)\b|\.to(?:Base64|Hex)\(/,
    probe: "Uint8Array.fromBase64",
  },
  {
    name: "DisposableStack",
    pattern: /\b(?:Async)?DisposableStack\b/,
    probe: "globalThis.DisposableStack",
  },
  { name: "SuppressedError", pattern: /\bSuppressedError\b/, probe: "globalThis.SuppressedError" },
  {
    name: "using declarations",
    pattern: /^\s*(?:await\s+)?using\s+[A-Za-z_$][\w$]*\s*=/,
    probe:
      "(() => { try { return new Function('{ using x = null; }'); } catch { return undefined; } })()",
  },
  { name: "Temporal", pattern: /\bTemporal\./, probe: "globalThis.Temporal" },
];

/** A use of an API of the list: where, and which. */
interface NewerApiUse {
  readonly file: string;
  readonly line: number;
  readonly api: string;
  readonly text: string;
}

/**
 * The uses of the APIs of the list in one file's text, comments left out (lines of doc and line
 * comments, and what follows `// ` on a line).
 */
function newerApiUses(file: string, text: string): NewerApiUse[] {
  const uses: NewerApiUse[] = [];
  // A name the file imports (a polyfill's Temporal, say) is no use of the runtime's.
  const imported = new Set(
    [...text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from/g)].flatMap((match) =>
      match[1]!.split(",").map((name) => name.trim().split(/\s+as\s+/).pop()!)
    ),
  );
  const apis = newerApis.filter((api) => !imported.has(api.name.split(/[.\s]/)[0]!));
  let inBlock = false;
  text.split("\n").forEach((raw, index) => {
    let line = raw;
    if (inBlock) {
      const end = line.indexOf("*/");
      if (end === -1) return;
      inBlock = false;
      line = line.slice(end + 2);
    }
    const trimmed = line.trim();
    if (trimmed.startsWith("//") || trimmed.startsWith("*")) return;
    if (trimmed.startsWith("/*")) {
      if (!trimmed.includes("*/")) inBlock = true;
      return;
    }
    const code = line.replace(/(^|\s)\/\/\s.*$/, "$1");
    for (const api of apis) {
      if (api.pattern.test(code)) {
        uses.push({ file, line: index + 1, api: api.name, text: trimmed });
      }
    }
  });
  return uses;
}

function sources(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (
        !["testdata", "testdata", "tests", "types_test", "node_modules"].includes(entry.name)
      ) {
        sources(path, into);
      }
    } else if (/\.ts$/.test(entry.name) && !/(_test|\.test|\.spec|_bench)\.ts$/.test(entry.name)) {
      into.push(path);
    }
  }
  return into;
}

Deno.test("library code and kit's templates use no API that Node 20 lacks", () => {
  const uses = scanned.flatMap((dir) =>
    sources(dir).flatMap((file) => newerApiUses(file, readFileSync(join(root, file), "utf8")))
  );
  assert.deepEqual(
    uses.map((use) => `${use.file}:${use.line}: ${use.api}: ${use.text}`),
    [],
    "replace each (a generated project may run on Node 20)",
  );
  assert.ok(uses.length === 0);
});

Deno.test("the check finds each API of its list in code, and none in comments or zod", () => {
  const found = (code: string) => newerApiUses("x.ts", code).map((use) => use.api);
  assert.deepEqual(found("return Promise.try(() => this.#rows.insert(row));"), ["Promise.try"]);
  assert.deepEqual(found("    return Promise.try(() => {"), ["Promise.try"]);
  assert.deepEqual(found("const all = await Array.fromAsync(stream);"), ["Array.fromAsync"]);
  assert.deepEqual(found("const both = a.union(b);"), ["Set.prototype.union"]);
  assert.deepEqual(found("const ids = rows.keys().map((k) => k);"), [
    "Iterator helpers (.values().map() and the like)",
  ]);
  assert.deepEqual(found("  using lock = acquire();"), ["using declarations"]);
  assert.deepEqual(found("const { promise, resolve } = Promise.withResolvers();"), [
    "Promise.withResolvers",
  ]);
  // Not uses: comments, zod's union, a function of the same name.
  assert.deepEqual(found(" * calls Promise.try, which Node 20 lacks"), []);
  assert.deepEqual(found("// Promise.try would do"), []);
  assert.deepEqual(found("/* Promise.try */"), []);
  assert.deepEqual(found("/*\n Promise.try\n*/ const x = 1;"), []);
  assert.deepEqual(found("const x = 1; // not Promise.try"), []);
  assert.deepEqual(found("q: z.union([z.string(), z.number()]),"), []);
  assert.deepEqual(found("const etag = toBase64Url(bytes);"), []);
  assert.deepEqual(found('const url = "http://host/Promise.try";'), ["Promise.try"]);
  assert.deepEqual(found("Temporal.Now.instant();"), ["Temporal"]);
  assert.deepEqual(
    found('import { Temporal } from "npm:temporal-polyfill";\nTemporal.Now.instant();'),
    [],
  );
});

/** The major version of the `node` on the PATH, if any. */
function nodeMajor(): number | undefined {
  try {
    const out = new Deno.Command("node", { args: ["--version"], stdout: "piped", stderr: "null" })
      .outputSync();
    return out.success
      ? Number(/^v(\d+)/.exec(new TextDecoder().decode(out.stdout))?.[1])
      : undefined;
  } catch {
    return undefined;
  }
}

const major = nodeMajor();
Deno.test({
  name: "each API of the list is missing on Node 20 (needs node 20 on the PATH)",
  ignore: major !== 20,
  fn() {
    const probes = newerApis.map((api) =>
      `(() => { try { return typeof (${api.probe}) === "undefined"; } catch { return true; } })()`
    );
    const out = new Deno.Command("node", {
      args: ["-e", `console.log(JSON.stringify([${probes.join(",")}]))`],
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const missing: boolean[] = JSON.parse(new TextDecoder().decode(out.stdout));
    const present = newerApis.filter((_, index) => !missing[index]).map((api) => api.name);
    assert.deepEqual(present, [], "Node 20 has these: they need no place in the list");
  },
});
