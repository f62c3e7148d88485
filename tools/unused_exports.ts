/**
 * Lists, for every entry point of kernel, http and jobs (their `deno.json` `exports`), each name
 * it exports (from `deno doc --json`) that no file outside its package uses (`git grep -w` on
 * lines of code, not comments; markdown and `vendor/` left out), and says why each may stay:
 *
 * - `signature`: a type another export of kernel, http or jobs names in its signature (a
 *   parameter, a return, an option field, a base class): JSR documents it beside that export;
 * - `extension point`: named in a paragraph or list item of the package README that says it is an
 *   extension point (what a store or authenticator author implements or calls);
 * - `documented`: user-facing API named in code in the root README, a page of `docs/` or the
 *   package README (outside the generated exports list).
 *
 * Any other unused name fails the run: move it behind the boundary (drop it from the entry point,
 * import it by relative path inside the package), document it, or use it. Run by `deno task
 * check`: `deno run -A tools/unused_exports.ts`; `--verbose` prints the names that stay, by
 * package and reason.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const packages = ["kernel", "http", "jobs", "drizzle", "knex"];

/** One exported name of one entry point, with its declarations as `deno doc --json` gives them. */
export interface ExportedName {
  readonly name: string;
  readonly entry: string;
  readonly declarations: readonly unknown[];
}

/** Why an unused export stays, or `undefined` when nothing justifies it. */
export type Reason = "signature" | "extension point" | "documented";

/** Every name in code in a markdown text: in inline code spans and fenced blocks. */
export function namesInCode(markdown: string): Set<string> {
  const code: string[] = [];
  const withoutBlocks = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_block, body: string) => {
    code.push(body);
    return "";
  });
  for (const span of withoutBlocks.matchAll(/`([^`\n]+)`/g)) code.push(span[1]!);
  return new Set(code.join("\n").match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/** The hand-written part of a package README: all but the generated exports list. */
export function handWritten(readme: string): string {
  return readme.replace(/<!-- kit:begin exports -->[\s\S]*?<!-- kit:end -->/g, "");
}

/**
 * The names in code in the README's paragraphs and list items (hand-written) that say "extension
 * point".
 */
export function extensionPoints(readme: string): Set<string> {
  const names = new Set<string>();
  for (const block of handWritten(readme).split(/\n\s*\n|\n(?=- )/)) {
    if (!/extension point/i.test(block)) continue;
    for (const name of namesInCode(block)) names.add(name);
  }
  return names;
}

/** Every type name the declarations refer to (type references, base classes, implemented types). */
export function referencedTypes(declarations: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  const json = JSON.stringify(declarations);
  for (const match of json.matchAll(/"(?:typeName|extends)":"([\w$.]+)"/g)) {
    names.add(match[1]!.split(".").at(-1)!);
  }
  for (const match of json.matchAll(/"implements":\[([^\]]*)\]/g)) {
    for (const repr of match[1]!.matchAll(/"repr":"([\w$.]+)/g)) names.add(repr[1]!);
  }
  return names;
}

/**
 * Why an export no one outside its package uses may stay: named in another export's signature, an
 * extension point of the package README, or documented in code in a README.
 */
export function reasonToStay(
  name: ExportedName,
  context: {
    readonly everyExport: readonly ExportedName[];
    readonly extensionPoints: ReadonlySet<string>;
    readonly documented: ReadonlySet<string>;
  },
): Reason | undefined {
  if (
    context.everyExport.some((other) =>
      other.name !== name.name && referencedTypes(other.declarations).has(name.name)
    )
  ) return "signature";
  if (context.extensionPoints.has(name.name)) return "extension point";
  if (context.documented.has(name.name)) return "documented";
  return undefined;
}

function exported(pkg: string): ExportedName[] {
  const { exports } = JSON.parse(readFileSync(join(root, pkg, "deno.json"), "utf8")) as {
    exports: Record<string, string>;
  };
  const names: ExportedName[] = [];
  for (const [entry, file] of Object.entries(exports)) {
    const run = new Deno.Command(Deno.execPath(), {
      args: ["doc", "--json", join(pkg, file)],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const json = JSON.parse(new TextDecoder().decode(run.stdout)) as {
      nodes: Record<string, { symbols: { name: string; declarations: unknown[] }[] }>;
    };
    for (const module of Object.values(json.nodes)) {
      for (const symbol of module.symbols) {
        names.push({
          name: symbol.name,
          entry: `${pkg}${entry.slice(1)}`,
          declarations: symbol.declarations,
        });
      }
    }
  }
  return names;
}

/** Whether a line of source is a comment's (`//`, `/*`, or inside a doc comment). */
export function isCommentLine(line: string): boolean {
  return /^\s*(\/\/|\/\*|\*)/.test(line);
}

/**
 * The names among `names` that some tracked file outside `pkg` uses as a word on a line of code
 * (comment lines do not count).
 */
function usedOutside(pkg: string, names: readonly string[]): Set<string> {
  const wanted = new Set(names.filter((name) => /^[\w$]+$/.test(name)));
  const used = new Set<string>();
  const words = [...wanted];
  for (let i = 0; i < words.length; i += 200) {
    const run = new Deno.Command("git", {
      args: [
        "grep",
        "-hIw",
        ...words.slice(i, i + 200).flatMap((word) => ["-e", word]),
        "--",
        ".",
        `:(exclude)${pkg}/`,
        ":(exclude)*.md",
        ":(exclude)vendor/",
        ":(exclude)deno.lock",
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    if (run.code > 1) throw new Error(new TextDecoder().decode(run.stderr));
    for (const line of new TextDecoder().decode(run.stdout).split("\n")) {
      if (isCommentLine(line)) continue;
      for (const word of line.match(/[\w$]+/g) ?? []) if (wanted.has(word)) used.add(word);
    }
  }
  return used;
}

/** The Markdown pages under `dir` (the docs tree), as absolute paths. */
function docsPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? docsPages(join(dir, entry.name))
      : entry.name.endsWith(".md")
      ? [join(dir, entry.name)]
      : []
  );
}

if (import.meta.main) {
  const verbose = Deno.args.includes("--verbose");
  const everyExport = packages.flatMap(exported);
  const rootReadme = namesInCode(
    [join(root, "README.md"), ...docsPages(join(root, "docs"))]
      .map((path) => readFileSync(path, "utf8")).join("\n\n"),
  );
  const unjustified: string[] = [];
  for (const pkg of packages) {
    const readme = readFileSync(join(root, pkg, "README.md"), "utf8");
    const context = {
      everyExport,
      extensionPoints: extensionPoints(readme),
      documented: new Set([...rootReadme, ...namesInCode(handWritten(readme))]),
    };
    const own = everyExport.filter((name) => name.entry.split("/")[0] === pkg);
    const used = usedOutside(pkg, own.map((name) => name.name));
    const staying = new Map<Reason, string[]>();
    for (const name of own.filter((name) => !used.has(name.name))) {
      const reason = reasonToStay(name, context);
      if (reason === undefined) unjustified.push(`${name.entry}: ${name.name}`);
      else staying.set(reason, [...staying.get(reason) ?? [], `${name.name}`]);
    }
    const counts = [...staying].map(([reason, names]) => `${names.length} ${reason}`).join(", ");
    console.log(
      `${pkg}: ${own.length} exports, unused outside it but staying: ${counts || "none"}`,
    );
    if (verbose) {
      for (const [reason, names] of staying) {
        console.log(`  ${reason}: ${[...new Set(names)].sort().join(", ")}`);
      }
    }
  }
  if (unjustified.length > 0) {
    console.error(
      `exported, used by nothing outside its package, and neither in a signature, an extension ` +
        `point nor documented (drop it from the entry point, or document it):\n  ${
          unjustified.join("\n  ")
        }`,
    );
    Deno.exit(1);
  }
}
