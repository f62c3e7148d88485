/**
 * Each package's README lists what its entry points export, one line each (the name, its kind,
 * the first sentence of its doc comment), between `<!-- kit:begin exports -->` and
 * `<!-- kit:end -->`, formatted as `deno fmt` leaves it; the rest of the README is written by
 * hand. `deno run -A
 * tools/package_readmes.ts` rewrites the lists from `deno doc --json`; with `--check` (run by
 * `deno task check`) it writes nothing and fails naming each README whose list is stale.
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const packages = ["kernel", "http", "jobs", "cli", "drizzle", "knex"];

interface DocNode {
  readonly name: string;
  readonly declarations: readonly {
    readonly kind: string;
    readonly jsDoc?: { readonly doc?: string };
  }[];
}

/** The first sentence of a doc comment, on one line, `{@linkcode x}` written as `x`. */
export function firstSentence(doc: string | undefined): string {
  const text = (doc ?? "").replace(/\{@link(?:code)? ([^}]+)\}/g, "`$1`").replace(/\s+/g, " ")
    .trim();
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

/** The exports list of one package: a heading per entry point, a line per exported name. */
export function exportsList(
  name: string,
  entries: readonly [string, readonly DocNode[]][],
): string {
  const lines: string[] = [];
  for (const [entry, nodes] of entries) {
    lines.push(`### \`@kit/${name}${entry === "." ? "" : entry.slice(1)}\``, "");
    for (const node of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) {
      const declaration = node.declarations.find((d) => d.jsDoc?.doc) ?? node.declarations[0]!;
      const kinds = [...new Set(node.declarations.map((d) => d.kind))].join(", ");
      lines.push(`- \`${node.name}\` (${kinds}): ${firstSentence(declaration.jsDoc?.doc)}`);
    }
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}

async function documented(pkg: string): Promise<[string, DocNode[]][]> {
  const { exports } = JSON.parse(readFileSync(join(root, pkg, "deno.json"), "utf8")) as {
    exports: Record<string, string>;
  };
  const out: [string, DocNode[]][] = [];
  for (const [entry, file] of Object.entries(exports)) {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["doc", "--json", join(pkg, file)],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).output();
    const json = JSON.parse(new TextDecoder().decode(run.stdout)) as {
      nodes: Record<string, { symbols: DocNode[] }>;
    };
    out.push([entry, Object.values(json.nodes).flatMap((module) => module.symbols)]);
  }
  return out;
}

/** Markdown as `deno fmt` leaves it under the repository's settings. */
async function formatted(markdown: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  return new TextDecoder().decode((await child.output()).stdout);
}

const begin = "<!-- kit:begin exports -->";
const end = "<!-- kit:end -->";

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const stale: string[] = [];
  for (const pkg of packages) {
    const path = join(root, pkg, "README.md");
    const text = readFileSync(path, "utf8");
    const from = text.indexOf(begin);
    const to = text.indexOf(end, from);
    if (from === -1 || to === -1) throw new Error(`${pkg}/README.md has no ${begin} region`);
    const next = await formatted(
      `${text.slice(0, from + begin.length)}\n${exportsList(pkg, await documented(pkg))}\n${
        text.slice(to)
      }`,
    );
    if (next === text) continue;
    stale.push(`${pkg}/README.md`);
    if (!check) writeFileSync(path, next);
  }
  if (check && stale.length > 0) {
    console.error(
      `package READMEs stale: ${stale.join(", ")} (run 'deno run -A tools/package_readmes.ts')`,
    );
    Deno.exit(1);
  }
  console.log(
    check ? "package READMEs: every export listed" : `package READMEs: ${stale.length} written`,
  );
}
