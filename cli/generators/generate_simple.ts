import { existsSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { aOrAn, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { builderFile, builderNames, builderPath } from "./aggregate_builder.ts";
import { didYouMean, orThe } from "./close_names.ts";

/** Refuses an unknown context, naming the known ones. */
export function checkContext(config: KitConfig, context: string): void {
  if (!config.contexts.some((c) => c.name === context)) {
    throw new CliError(
      `Unknown context '${context}': ${
        orThe(didYouMean(context, config.contexts.map((c) => c.name)))
      }contexts are ${config.contexts.map((c) => c.name).join(", ") || "none"}`,
    );
  }
}

/**
 * Plans an aggregate: the domain class with an identity, its snapshot (the plain data its
 * repository keeps, with the tenant and the version beside it), its test builder (the one place
 * specs make one: `<aggregate>.builder.ts`) and a spec.
 */
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
  const builder = builderNames(name);
  return await withDerived(root, config, [
    { path, create: true, contents: aggregateFile(name) },
    { path: builderPath(context, name), create: true, contents: builderFile(name, undefined) },
    {
      path: `src/contexts/${context}/domain/${kebab}.spec.ts`,
      create: true,
      contents: `import assert from "node:assert/strict";
import { ${name} } from "./${kebab}.ts";
import { ${builder.instance}, ${builder.arguments} } from "./${builder.file}";

Deno.test("${name}.create keeps its id and refuses an empty one", () => {
  assert.equal(${builder.instance}("x1").id, "x1");
  const [, ...others] = ${builder.arguments}("x1");
  assert.throws(() => ${name}.create("", ...others), /needs an id/);
});

Deno.test("${name}.restore gives back the ${name} its snapshot kept", () => {
  const snapshot = ${builder.instance}("x1").snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snapshot)), snapshot, "a snapshot is plain JSON");
  assert.deepEqual(${name}.restore(snapshot).snapshot(), snapshot);
});
`,
    },
  ]);
}

function aggregateFile(name: string): string {
  const one = aOrAn(name);
  const sentenceStart = one.replace(/^a/, "A");
  return `/**
 * What ${one} keeps, as plain JSON data: what its repository stores and restores. The
 * repository keeps the tenant and the version beside it: they are not the domain's business.
 */
export interface ${name}Snapshot {
  readonly id: string;
  // TODO(domain): what ${one} keeps (plain JSON: text, numbers, booleans, arrays, objects).
}

/**
 * The ${name} aggregate: it decides, and refuses with a domain error when it must. Its
 * repository loads it with the version it had and saves it expecting that version, so that a
 * decision made on a stale ${name} is refused (\`CONCURRENT_UPDATE\`) instead of undoing other
 * work.
 */
export class ${name} {
  #snapshot: ${name}Snapshot;

  private constructor(snapshot: ${name}Snapshot) {
    this.#snapshot = snapshot;
  }

  /** A new ${name}. */
  static create(id: string): ${name} {
    if (id.length === 0) throw new TypeError("${sentenceStart} needs an id");
    return new ${name}({ id });
  }

  /** The ${name} its repository kept (nothing is decided again). */
  static restore(snapshot: ${name}Snapshot): ${name} {
    return new ${name}(snapshot);
  }

  /** Its identity. */
  get id(): string {
    return this.#snapshot.id;
  }

  /** What its repository keeps of it. */
  snapshot(): ${name}Snapshot {
    return this.#snapshot;
  }

  // TODO(domain): the decisions of ${name}, each refusing with ConceptError.refusal(...) or
  // replacing the snapshot with the next one (this.#snapshot = { ...this.#snapshot, ... }).
}
`;
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
