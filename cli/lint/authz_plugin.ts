/**
 * The Deno lint plugin `authz`, rule `declared`: every route is closed unless it says otherwise,
 * and every authorized message names its permission. Reported: a `@Controller({...})` with no
 * `group` and no (or an empty) `guards`; a class extending `AuthorizedCommand` or
 * `AuthorizedQuery` without `@Requires(...)`.
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
            const spec = call.arguments[0];
            if (spec === undefined || spec.type !== "ObjectExpression") continue;
            const group = property(spec, "group");
            const guards = property(spec, "guards");
            const noGuards = guards === undefined ||
              (guards.value.type === "ArrayExpression" && guards.value.elements.length === 0);
            if (group === undefined && noGuards) {
              context.report({
                node: decorator,
                message: `Route '${
                  node.id?.name ?? "?"
                }' declares no group and no guard: routes are closed unless they declare one (or guards: [Public])`,
              });
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
        return { ClassDeclaration: check };
      },
    },
  },
};

export default plugin;
