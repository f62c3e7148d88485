/**
 * The Deno lint plugin `authz`, rule `declared`: every route is closed unless it says otherwise,
 * and every authorized message names its permission. Reported: a `@Controller({...})`, or a
 * route declared as a constant (`const route = controllerRoute({...})`), with no `group` and no
 * (or an empty) `guards` (a declaration that spreads another is left to the check when its class
 * is defined); a class extending `AuthorizedCommand` or `AuthorizedQuery` without `@Requires(...)`
 * whose permission no module file above it declares with the builder (`builder.requires(Class,
 * permission)`, the class imported from its file). The report says the fix of the project's style
 * (`"declarations"` in its `kit.config.json`): the decorator, or the builder's line in the module.
 *
 * Enable it in a project's `deno.json`: `"lint": { "plugins": ["jsr:@kit/cli/lint/authz"] }`.
 * It reads the module files and `kit.config.json` (a lint plugin may read files, Deno 2.6 on).
 *
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";

type Node = Deno.lint.Node;

function decoratorName(decorator: Deno.lint.Decorator): string | undefined {
  const e = decorator.expression;
  if (e.type === "CallExpression" && e.callee.type === "Identifier") return e.callee.name;
  if (e.type === "Identifier") return e.name;
  return undefined;
}

function property(object: Node, key: string): Deno.lint.Property | undefined {
  if (object.type !== "ObjectExpression") return undefined;
  for (const p of object.properties) {
    if (
      p.type === "Property" &&
      ((p.key.type === "Identifier" && p.key.name === key) ||
        (p.key.type === "Literal" && p.key.value === key))
    ) return p;
  }
  return undefined;
}

/** The declaration object of `controllerRoute({...})` or of a bare object, else undefined. */
function specOf(node: Node | undefined): Node | undefined {
  if (node?.type === "ObjectExpression") return node;
  if (
    node?.type === "CallExpression" && node.callee.type === "Identifier" &&
    node.callee.name === "controllerRoute"
  ) return node.arguments[0]?.type === "ObjectExpression" ? node.arguments[0] : undefined;
  return undefined;
}

/** Whether a declaration says neither a group nor a guard (one that spreads another may). */
function unguarded(spec: Node): boolean {
  if (spec.type !== "ObjectExpression") return false;
  if (spec.properties.some((p) => p.type === "SpreadElement")) return false;
  const guards = property(spec, "guards");
  const noGuards = guards === undefined ||
    (guards.value.type === "ArrayExpression" && guards.value.elements.length === 0);
  return property(spec, "group") === undefined && noGuards;
}

/** What the rule says of a route that declares no group and no guard. */
function openRoute(name: string): string {
  return `Route '${name}' declares no group and no guard: routes are closed unless they declare one (or guards: [Public])`;
}

/** A file's text, or undefined when there is none to read. */
function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** The module files (`*.module.ts`) of a directory, sorted. */
function moduleFiles(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((entry) => entry.isFile && entry.name.endsWith(".module.ts"))
      .map((entry) => join(dir, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** Where a file sits: the module files above it, nearest first, and its project's style. */
interface Place {
  readonly modules: readonly string[];
  /** The project's root: the directory of its `kit.config.json` (else of its `deno.json`). */
  readonly root?: string;
  /** Whether the project declares with the builder (`"declarations": "builder"`). */
  readonly builder: boolean;
}

function placeOf(file: string): Place {
  const modules: string[] = [];
  let dir = dirname(resolve(file));
  for (;;) {
    modules.push(...moduleFiles(dir));
    const config = readText(join(dir, "kit.config.json"));
    if (config !== undefined) return { modules, root: dir, builder: declaresWithBuilder(config) };
    if (readText(join(dir, "deno.json")) !== undefined) {
      return { modules, root: dir, builder: false };
    }
    const up = dirname(dir);
    if (up === dir) return { modules, builder: false };
    dir = up;
  }
}

function declaresWithBuilder(config: string): boolean {
  try {
    return (JSON.parse(config) as { declarations?: unknown })?.declarations === "builder";
  } catch {
    return false;
  }
}

/** The text without its comments (a line comment starts the line or follows a blank). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
}

/**
 * Whether the module file declares the permission of `className` of `file` with the builder: a
 * `.requires(Name, permission...)` call, `Name` the class as the module imports it (by a
 * relative path to its file) or declares it.
 */
function builderRequires(modulePath: string, file: string, className: string): boolean {
  const text = readText(modulePath);
  if (text === undefined) return false;
  const code = withoutComments(text);
  const target = resolve(file);
  const names = new Set<string>(resolve(modulePath) === target ? [className] : []);
  for (const match of code.matchAll(/import\s+\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const from = match[2]!;
    if (!from.startsWith(".")) continue;
    const path = resolve(dirname(modulePath), from);
    if (path !== target && `${path}.ts` !== target) continue;
    for (const specifier of match[1]!.split(",")) {
      const [imported, local] = specifier.trim().split(/\s+as\s+/);
      if (imported === className) names.add((local ?? imported).trim());
    }
  }
  return [...names].some((name) =>
    new RegExp(`\\.requires\\(\\s*${name.replace(/\$/g, "\\$")}\\s*,\\s*[^\\s)]`).test(code)
  );
}

/** What the rule says of an authorized message that names no permission, in the project's style. */
function noPermission(name: string, parent: string, place: Place): string {
  const says = `'${name}' extends ${parent} but declares no permission`;
  if (!place.builder) return `${says}: decorate it with @Requires(...)`;
  const module = place.modules[0];
  const where = module === undefined
    ? "its context's module file"
    : `its module file (${relative(place.root ?? dirname(module), module)})`;
  return `${says}: declare it in ${where} with builder.requires(${name}, permission)`;
}

/** The plugin. */
const plugin: Deno.lint.Plugin = {
  name: "authz",
  rules: {
    declared: {
      create(context) {
        const check = (node: Deno.lint.ClassDeclaration) => {
          // The AST carries decorators; this version's type declarations do not name them.
          const decorators =
            (node as Deno.lint.ClassDeclaration & { decorators?: Deno.lint.Decorator[] })
              .decorators ?? [];
          for (const decorator of decorators) {
            if (decoratorName(decorator) !== "Controller") continue;
            const call = decorator.expression;
            if (call.type !== "CallExpression") continue;
            const spec = specOf(call.arguments[0]);
            if (spec !== undefined && unguarded(spec)) {
              context.report({ node: decorator, message: openRoute(node.id?.name ?? "?") });
            }
          }
          const parent = node.superClass;
          if (
            parent?.type === "Identifier" &&
            (parent.name === "AuthorizedCommand" || parent.name === "AuthorizedQuery") &&
            !decorators.some((d) => decoratorName(d) === "Requires")
          ) {
            const name = node.id?.name ?? "?";
            const place = placeOf(context.filename);
            if (place.modules.some((module) => builderRequires(module, context.filename, name))) {
              return;
            }
            context.report({
              node: node.id ?? node,
              message: noPermission(name, parent.name, place),
            });
          }
        };
        const route = (node: Deno.lint.VariableDeclarator) => {
          const spec = node.init?.type === "CallExpression" ? specOf(node.init) : undefined;
          if (spec === undefined || !unguarded(spec)) return;
          context.report({
            node,
            message: openRoute(node.id.type === "Identifier" ? node.id.name : "?"),
          });
        };
        return { ClassDeclaration: check, VariableDeclarator: route };
      },
    },
  },
};

export default plugin;
