import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FileWrite } from "../files/file_plan.ts";
import { aOrAn, camelOf, kebabOf } from "../project/kit_config.ts";
import type { FactoryParameter, Shape } from "./message_shape.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** The names of an aggregate's test builder: its file (from `domain/`) and its two functions. */
export interface BuilderNames {
  /** The module, as `domain/` names it (`bike.builder.ts`). */
  readonly file: string;
  /** The arguments of the factory for a valid new one of an id (`newBikeArguments`). */
  readonly arguments: string;
  /** A new one of an id (`aBike`, `anAppointment`). */
  readonly instance: string;
}

/** The names of the test builder of `aggregate`. */
export function builderNames(aggregate: string): BuilderNames {
  const article = aOrAn(aggregate).split(" ")[0]!;
  return {
    file: `${kebabOf(aggregate)}.builder.ts`,
    arguments: `new${aggregate}Arguments`,
    instance: `${article}${aggregate}`,
  };
}

/** Where the test builder of an aggregate is, from the project's root. */
export function builderPath(context: string, aggregate: string): string {
  return `src/contexts/${context}/domain/${builderNames(aggregate).file}`;
}

/**
 * Which parameter of the factory is the new aggregate's id: the first named `id` (or `bikeId` of
 * a Bike), else the first.
 */
export function idIndexOf(parameters: readonly FactoryParameter[], aggregate: string): number {
  const named = parameters.findIndex((p) =>
    p.name === "id" || p.name === `${camelOf(kebabOf(aggregate))}Id`
  );
  return Math.max(0, named);
}

/**
 * A valid value of a shape, for a spec (`"model-1"`, `1`, `false`, an enum's first value);
 * `undefined` for a shape kit cannot state.
 */
export function sampleOf(shape: Shape | undefined, name: string): string | undefined {
  switch (shape?.kind) {
    case "string":
      return JSON.stringify(`${name}-1`);
    case "number":
      return "1";
    case "boolean":
      return "false";
    case "void":
      return "undefined";
    case "enum":
      return JSON.stringify(shape.values[0]);
    case "array":
      return "[]";
    case "object": {
      const fields = shape.fields.filter((f) => !f.optional).map((field) => {
        const value = sampleOf(field.shape, field.name);
        return value === undefined ? undefined : `${field.name}: ${value}`;
      });
      return fields.includes(undefined) ? undefined : `{ ${fields.join(", ")} }`;
    }
    default:
      return undefined;
  }
}

/**
 * The test builder of an aggregate: the arguments of its factory for a valid new one of an id
 * (each required parameter but the id given a valid value, as far as its type says; a type kit
 * cannot state left as a `TODO(domain)` the type check points to), and a new one made of them.
 */
export function builderFile(
  aggregate: string,
  parameters: readonly FactoryParameter[] | undefined,
): string {
  const names = builderNames(aggregate);
  const all = parameters ?? [{ name: "id", type: "string", shape: undefined, optional: false }];
  const idIndex = idIndexOf(all, aggregate);
  // The arguments up to the first optional parameter: those it cannot do without.
  const firstOptional = all.findIndex((parameter) => parameter.optional);
  const required = firstOptional === -1 ? all : all.slice(0, firstOptional);
  const values = required.map((parameter, index) =>
    index === idIndex ? "id" : sampleOf(parameter.shape, parameter.name) ??
      `undefined /* TODO(domain): a valid ${parameter.name} (${parameter.type}) */`
  );
  return generatorTemplate("aggregate/aggregate.builder.ts", {
    aggregate,
    kebab: kebabOf(aggregate),
    arguments: names.arguments,
    values: values.join(", "),
    instance: names.instance,
  });
}

/**
 * The test builder of an aggregate, when it has none yet (a project generated before builders
 * were): written from its factory as the code has it now. Loads the parser only then.
 */
export async function planBuilder(
  root: string,
  context: string,
  aggregate: string,
): Promise<FileWrite[]> {
  const path = builderPath(context, aggregate);
  if (existsSync(join(root, path))) return [];
  const { readAggregateFactory } = await import("./message_shape.ts");
  const factory = readAggregateFactory(
    join(root, `src/contexts/${context}/domain/${kebabOf(aggregate)}.ts`),
    aggregate,
  );
  return [{ path, create: true, contents: builderFile(aggregate, factory.parameters) }];
}
