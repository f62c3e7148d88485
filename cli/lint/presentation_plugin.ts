/**
 * The Deno lint plugin `presentation`, rule `guard-at-the-edge`: a guard answers from the caller
 * and the request only. In a file that declares a guard (`@Guard(...)`, or a `*.guard.ts` file),
 * an import of the domain, of infrastructure or of a repository is reported.
 *
 * Enable it in a project's `deno.json`: `"lint": { "plugins": ["jsr:@kit/cli/lint/presentation"] }`.
 *
 * @module
 */

const reach = /\/(domain|infrastructure)\//;

/** The plugin. */
const plugin: Deno.lint.Plugin = {
  name: "presentation",
  rules: {
    "guard-at-the-edge": {
      create(context) {
        const source = context.sourceCode.text;
        const isGuardFile = context.filename.endsWith(".guard.ts") || /@Guard\s*\(/.test(source);
        if (!isGuardFile) return {};
        return {
          ImportDeclaration(node) {
            const from = node.source.value;
            const names = node.specifiers.map((s) => s.local.name);
            const repository = names.find((n) => /Repository$/.test(n));
            if (reach.test(from) || repository !== undefined) {
              context.report({
                node,
                message: `A guard answers from the caller and the request only: it imports ${
                  repository ?? from
                }. Decide on the element in a permission policy (@Requires), not at the edge.`,
              });
            }
          },
        };
      },
    },
  },
};

export default plugin;
