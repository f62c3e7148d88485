/**
 * The Deno lint plugin `authz`, rule `declared`: every route is closed unless it says otherwise,
 * and every authorized message names its permission. Reported: a `@Controller({...})`, or a
 * route declared as a constant (`const route = controllerRoute({...})`), with no `group` and no
 * (or an empty) `guards` (a declaration that spreads another is left to the check when its class
 * is defined); a class extending `AuthorizedCommand` or `AuthorizedQuery` without `@Requires(...)`.
 *
 * Enable it in a project's `deno.json`: `"lint": { "plugins": ["jsr:@kit/cli/lint/authz"] }`.
 *
 * @module
 */

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
            context.report({
              node: node.id ?? node,
              message: `'${
                node.id?.name ?? "?"
              }' extends ${parent.name} but declares no permission: decorate it with @Requires(...)`,
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
