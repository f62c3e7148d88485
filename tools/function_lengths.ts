/**
 * Lists the functions, methods and arrow functions of TypeScript files that are longer than a
 * number of lines, longest first, as `file:line  length  name`. A function's length counts the
 * lines from its first to its last, both included; nested functions are measured on their own
 * and also counted in the function around them.
 *
 * ```sh
 * deno run -A tools/function_lengths.ts [--over N] [--exclude PATH]... [--median] PATH...
 * ```
 *
 * Paths are files or folders (searched for `.ts` files that are not `_test.ts`). `--over`
 * defaults to 50; `--median` prints the median length of every function found instead.
 *
 * @module
 */
import { parse } from "@babel/parser";

/** One function found in a file: where it starts, its length in lines and a name for it. */
export interface FunctionLength {
  readonly file: string;
  readonly line: number;
  readonly lines: number;
  readonly name: string;
}

interface Node {
  readonly type: string;
  readonly loc?: {
    readonly start: { readonly line: number };
    readonly end: { readonly line: number };
  };
  readonly [key: string]: unknown;
}

const functionTypes = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ClassMethod",
  "ClassPrivateMethod",
  "ObjectMethod",
  "TSDeclareMethod",
]);

/** The functions of one module's source, with `file` as their file. */
export function functionLengths(file: string, source: string): FunctionLength[] {
  const ast = parse(source, { sourceType: "module", plugins: ["typescript", "decorators"] });
  const found: FunctionLength[] = [];
  visit(ast.program as unknown as Node, undefined, (node, name) => {
    if (!functionTypes.has(node.type) || node.loc === undefined) return;
    if (node.body === undefined || node.body === null) return;
    const lines = node.loc.end.line - node.loc.start.line + 1;
    found.push({ file, line: node.loc.start.line, lines, name: name ?? "(anonymous)" });
  });
  return found;
}

function visit(
  node: Node,
  name: string | undefined,
  onNode: (node: Node, name?: string) => void,
): void {
  onNode(node, ownName(node) ?? name);
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || key === "start" || key === "end") continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) visit(child, childName(node, key), onNode);
    }
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as Node).type === "string";
}

function ownName(node: Node): string | undefined {
  const id = node.id as Node | undefined | null;
  if (node.type === "FunctionDeclaration" && id) return String(id.name);
  if (functionTypes.has(node.type) && isNode(node.key)) return keyName(node.key);
  return undefined;
}

/** The name a function gets from where it stands: `const name = () => …`, `name: () => …`. */
function childName(parent: Node, key: string): string | undefined {
  if (parent.type === "VariableDeclarator" && key === "init" && isNode(parent.id)) {
    return keyName(parent.id);
  }
  if ((parent.type === "ObjectProperty" || parent.type === "ClassProperty") && key === "value") {
    return isNode(parent.key) ? keyName(parent.key) : undefined;
  }
  return undefined;
}

function keyName(key: Node): string {
  if (typeof key.name === "string") return key.name;
  if (typeof key.value === "string") return key.value;
  return "[computed]";
}

/** The `.ts` files under a path that are not tests, or the path itself when it is a file. */
export async function sourceFiles(path: string): Promise<string[]> {
  const info = await Deno.stat(path);
  if (info.isFile) return [path];
  const files: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    const child = `${path.replace(/\/$/, "")}/${entry.name}`;
    if (entry.isDirectory) files.push(...await sourceFiles(child));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) files.push(child);
  }
  return files.sort();
}

async function main(args: string[]): Promise<void> {
  let over = 50;
  let median = false;
  const excluded: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--over") over = Number(args[++i]);
    else if (arg === "--exclude") excluded.push(args[++i]!);
    else if (arg === "--median") median = true;
    else paths.push(arg);
  }
  if (!Number.isInteger(over) || paths.length === 0) {
    console.error("usage: function_lengths.ts [--over N] [--exclude PATH]... [--median] PATH...");
    Deno.exit(2);
  }
  const all: FunctionLength[] = [];
  for (const path of paths) {
    for (const file of await sourceFiles(path)) {
      if (excluded.some((prefix) => file.startsWith(prefix))) continue;
      try {
        all.push(...functionLengths(file, await Deno.readTextFile(file)));
      } catch (error) {
        console.error(`${file}: not parsed (${error instanceof Error ? error.message : error})`);
      }
    }
  }
  if (median) {
    const sorted = all.map((f) => f.lines).sort((a, b) => a - b);
    console.log(
      `${all.length} functions, median ${sorted[Math.floor(sorted.length / 2)] ?? 0} lines`,
    );
    return;
  }
  const long = all.filter((f) => f.lines > over).sort((a, b) => b.lines - a.lines);
  for (const f of long) console.log(`${f.file}:${f.line}\t${f.lines}\t${f.name}`);
  console.log(`${long.length} functions over ${over} lines`);
}

if (import.meta.main) await main(Deno.args);
