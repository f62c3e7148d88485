/**
 * The builder style's edit of a context's module file: what a generator declares without a
 * decorator goes in the module's builder function (`defineModule(name, options, (builder) => {
 * ... })`), between `// kit:begin builder-declarations` and `// kit:end`, its imports between
 * `// kit:begin builder-imports` and `// kit:end`. The first such generator adds the function and
 * the regions; the module's data (its derived barrels, its providers) is never touched.
 *
 * @module
 */
import { parse } from "@babel/parser";
import { CliError } from "../cli_error.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";

// deno-lint-ignore no-explicit-any
type Node = any;

/** What a generator declares in the module's builder function. */
export interface BuilderDeclaration {
  /** The imports it needs, each `import { Name } from "..."` (one name each). */
  readonly imports: readonly string[];
  /** The call, given the builder's parameter name: `${builder}.backgroundJob(Job, {...});`. */
  readonly call: (builder: string) => string;
}

const declarationsRegion = "builder-declarations";
const importsRegion = "builder-imports";

/**
 * The module file `text` (at `path`) with `declaration` in its builder function, adding the
 * function and its regions when the module has none yet. An import of a name the file imports
 * already (outside the region) is left out.
 */
export function withBuilderDeclaration(
  text: string,
  path: string,
  declaration: BuilderDeclaration,
): string {
  const program = parseModule(text, path);
  const builder = builderName(program, path);
  let out = text;
  if (!hasRegion(out, declarationsRegion)) out = addDeclarationsRegion(out, program, path);
  if (!hasRegion(out, importsRegion)) out = addImportsRegion(out, program);
  const imported = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== "ImportDeclaration") continue;
    for (const specifier of statement.specifiers) imported.add(specifier.local.name);
  }
  const inRegion = new Set(readRegion(out, importsRegion, path));
  const imports = declaration.imports.filter((line) =>
    inRegion.has(line) || !imported.has(/import \{ (?:type )?(\w+) \}/.exec(line)?.[1] ?? "")
  );
  out = updateRegion(out, importsRegion, [...inRegion, ...imports], path);
  return updateRegion(
    out,
    declarationsRegion,
    [...readRegion(out, declarationsRegion, path), declaration.call(builder)],
    path,
  );
}

function parseModule(text: string, path: string): Node {
  try {
    return parse(text, { sourceType: "module", sourceFilename: path, plugins: ["typescript"] })
      .program;
  } catch (error) {
    throw new CliError(`'${path}' does not parse: ${(error as Error).message}`);
  }
}

function hasRegion(text: string, region: string): boolean {
  return text.split("\n").some((line) => line.trim() === `// kit:begin ${region}`);
}

/** The `defineModule(...)` call of the module file. */
function defineModuleCall(program: Node, path: string): Node {
  for (const statement of program.body) {
    const declaration = statement.type === "ExportNamedDeclaration"
      ? statement.declaration
      : statement;
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const declarator of declaration.declarations) {
      const init = declarator.init;
      if (init?.type === "CallExpression" && init.callee?.name === "defineModule") return init;
    }
  }
  throw new CliError(
    `'${path}' has no 'export const ...Module = defineModule(...)': the builder style declares there`,
  );
}

/** The builder function of the call, if it has one with a block body. */
function builderFunction(call: Node, path: string): Node | undefined {
  const last = call.arguments.at(-1);
  const isFunction = last?.type === "ArrowFunctionExpression" ||
    last?.type === "FunctionExpression";
  if (!isFunction) return undefined;
  if (last.body.type !== "BlockStatement" || last.params[0]?.type !== "Identifier") {
    throw new CliError(
      `'${path}': the builder function of defineModule needs a named parameter and a block body ({ ... }) for kit to declare in it`,
    );
  }
  return last;
}

function builderName(program: Node, path: string): string {
  return builderFunction(defineModuleCall(program, path), path)?.params[0].name ?? "builder";
}

function addDeclarationsRegion(text: string, program: Node, path: string): string {
  const call = defineModuleCall(program, path);
  const region = `// kit:begin ${declarationsRegion}\n  // kit:end`;
  const fn = builderFunction(call, path);
  if (fn !== undefined) {
    const close = fn.body.end - 1;
    return `${text.slice(0, close)}  ${region}\n${text.slice(close)}`;
  }
  const options = call.arguments[1];
  if (call.arguments.length !== 2 || options?.type !== "ObjectExpression") {
    throw new CliError(
      `'${path}': defineModule takes the module's options (an object) for kit to add its builder function`,
    );
  }
  return `${text.slice(0, options.end)}, (builder) => {\n  ${region}\n}${text.slice(options.end)}`;
}

function addImportsRegion(text: string, program: Node): string {
  const imports = program.body.filter((s: Node) => s.type === "ImportDeclaration");
  const at = imports.length === 0 ? 0 : imports.at(-1).end;
  const region = `// kit:begin ${importsRegion}\n// kit:end`;
  return at === 0 ? `${region}\n${text}` : `${text.slice(0, at)}\n${region}${text.slice(at)}`;
}
