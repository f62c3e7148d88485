import { existsSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";

/** Refuses an unknown context, naming the known ones. */
export function checkContext(config: KitConfig, context: string): void {
  if (!config.contexts.some((c) => c.name === context)) {
    throw new CliError(
      `Unknown context '${context}': the contexts are ${
        config.contexts.map((c) => c.name).join(", ") || "none"
      }`,
    );
  }
}

/** Plans an aggregate: the domain class with an identity and a spec. */
export async function planAggregate(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "aggregate name");
  const kebab = kebabOf(name);
  const path = `src/contexts/${context}/domain/${kebab}.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Aggregate '${name}' exists already in context '${context}'`);
  }
  return await withDerived(root, config, [
    {
      path,
      create: true,
      contents:
        `/** The ${name} aggregate: it decides, and refuses with a domain error when it must. */
export class ${name} {
  private constructor(readonly id: string) {}

  /** A new ${name}. */
  static create(id: string): ${name} {
    if (id.length === 0) throw new TypeError("A ${name} needs an id");
    return new ${name}(id);
  }

  // TODO(domain): the decisions of ${name}, each answering or refusing with ConceptError.refusal(...).
}
`,
    },
    {
      path: `src/contexts/${context}/domain/${kebab}.spec.ts`,
      create: true,
      contents: `import assert from "node:assert/strict";
import { ${name} } from "./${kebab}.ts";

Deno.test("${name}.create keeps its id and refuses an empty one", () => {
  assert.equal(${name}.create("x1").id, "x1");
  assert.throws(() => ${name}.create(""), /needs an id/);
});
`,
    },
  ]);
}

/** Plans a port: an interface of the application and its token, sharing one name. */
export async function planPort(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "port name");
  const path = `src/contexts/${context}/application/ports/${kebabOf(name)}.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Port '${name}' exists already in context '${context}'`);
  }
  return await withDerived(root, config, [{
    path,
    create: true,
    contents: `import { token } from "@kit/kernel";

/** ${name}: what the ${context} context needs from outside, in its own words. */
// deno-lint-ignore no-empty-interface -- the worker adds the operations
export interface ${name} {
  // TODO(domain): the operations the use cases need.
}

/** The token ${name} is provided under (an adapter in infrastructure/). */
export const ${name} = token<${name}>("${context}.${name}");
`,
  }]);
}
