import { camelOf, kebabOf } from "../project/kit_config.ts";
import { builderNames, idIndexOf, sampleOf } from "./aggregate_builder.ts";
import type { FactoryParameter, Field } from "./message_shape.ts";

/** The name of kit's part of a message's spec: the function that makes the message under test. */
export const messageUnderTestPart = "message under test";

/**
 * How a spec makes its message, by what the spec gives it besides the actor: a command that
 * creates the aggregate (`id`: the new one's), a message on one aggregate (`id`: its), a page
 * (`page`, `pageSize`), or nothing.
 */
export type SpecCall =
  | {
    readonly kind: "creates";
    readonly aggregate: string;
    readonly factory: readonly FactoryParameter[] | undefined;
  }
  | { readonly kind: "on"; readonly aggregate: string }
  | { readonly kind: "page" }
  | { readonly kind: "plain" };

/** The function a spec makes its message with (`newRetireBike`). */
export function messageMaker(message: string): string {
  return `new${message}`;
}

/**
 * Kit's part of a message's spec, between `// kit:begin message under test` and `// kit:end`:
 * the function the spec's tests make the message with, from the message's inputs as they are
 * now (`where`: the message's kind and context as its update command names them, `command
 * fleet`). Its parameters stay what the tests give (the actor, and the aggregate's id or the
 * page); each other input gets a valid value: for a creating command, the aggregate's test
 * builder's argument of the same name (the whole of its arguments while the command takes the
 * factory's parameters as they are), else a value of its type; an optional one is left out.
 */
export function messageUnderTest(
  where: string,
  message: string,
  inputs: readonly Field[],
  call: SpecCall,
): string {
  const given = call.kind === "page"
    ? "actor: Actor, page?: number, pageSize?: number"
    : call.kind === "plain"
    ? "actor: Actor"
    : "actor: Actor, id: string";
  const what = call.kind === "creates"
    ? ` with the id of the new ${call.aggregate}`
    : call.kind === "on"
    ? ` on the ${call.aggregate} of the id`
    : call.kind === "page"
    ? " for a page"
    : "";
  return [
    `// kit:begin ${messageUnderTestPart}`,
    `/**`,
    ` * A ${message} by the actor${what}, its other inputs valid values.`,
    ` * kit's part: \`kit generate ${where} ${message} --update\` rewrites it from its inputs.`,
    ` */`,
    `function ${messageMaker(message)}(${given}): ${message} {`,
    ...body(message, inputs, call),
    `}`,
    `// kit:end`,
  ].join("\n");
}

/** The lines of the function's body. */
function body(message: string, inputs: readonly Field[], call: SpecCall): string[] {
  const idInput = call.kind === "creates" || call.kind === "on"
    ? idInputOf(inputs, call.aggregate)
    : -1;
  if (call.kind === "creates") {
    const builder = builderNames(call.aggregate).arguments;
    const factory = call.factory ??
      [{ name: "id", type: "string", shape: undefined, optional: false }];
    const factoryId = idIndexOf(factory, call.aggregate);
    // The command takes the factory's parameters: the builder's arguments, whatever they become.
    const same = factory.length === inputs.length &&
      factory.every((p, i) =>
        (i === factoryId ? i === idInput : p.name === inputs[i]!.name) &&
        p.optional === inputs[i]!.optional
      );
    if (same) return [`  return new ${message}(actor, ...${builder}(id));`];
    const required = factory.findIndex((p) => p.optional);
    const made = inputs.map((input, index) => {
      if (index === idInput) return "id";
      const at = factory.findIndex((p, i) => i !== factoryId && p.name === input.name);
      return at !== -1 && (required === -1 || at < required) ? `made[${at}]` : undefined;
    });
    // The spec imports the builder's arguments for this part: it uses them, for the id at least
    // (where the builder puts it), so that no import is left unused.
    if (!made.some((value) => value?.startsWith("made[")) && idInput !== -1) {
      made[idInput] = factoryId < (required === -1 ? factory.length : required)
        ? `made[${factoryId}]`
        : "id";
    }
    const values = argumentsOf(inputs, (index) => made[index]);
    return values.some((value) => value.startsWith("made["))
      ? [
        `  const made = ${builder}(id);`,
        `  return new ${message}(${["actor", ...values].join(", ")});`,
      ]
      : [`  return new ${message}(${["actor", ...values].join(", ")});`];
  }
  const values = argumentsOf(
    inputs,
    (index) =>
      index === idInput
        ? "id"
        : call.kind === "page" && ["page", "pageSize"].includes(inputs[index]!.name)
        ? inputs[index]!.name
        : undefined,
  );
  return [`  return new ${message}(${["actor", ...values].join(", ")});`];
}

/**
 * The arguments after the actor: each input's given value, else a valid one (an optional input
 * left out: `undefined`, none at the end).
 */
function argumentsOf(
  inputs: readonly Field[],
  given: (index: number) => string | undefined,
): string[] {
  const values = inputs.map((input, index) =>
    given(index) ?? (input.optional ? "undefined" : sampleOf(input.shape, input.name) ??
      `undefined /* TODO(domain): a valid ${input.name} */`)
  );
  while (values.at(-1) === "undefined" && inputs[values.length - 1]!.optional) values.pop();
  return values;
}

/**
 * Which input of a message names its aggregate's id: the one named for it (`bikeId`) or `id`,
 * else the first required string named `…Id`; none: `-1`.
 */
function idInputOf(inputs: readonly Field[], aggregate: string): number {
  const named = inputs.findIndex((input) =>
    input.name === `${camelOf(kebabOf(aggregate))}Id` || input.name === "id"
  );
  if (named !== -1) return named;
  return inputs.findIndex((input) =>
    /Id$/.test(input.name) && input.shape.kind === "string" && !input.optional
  );
}
