import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileWrite } from "../files/file_plan.ts";
import { kebabOf } from "../project/kit_config.ts";
import { generatedParts, replaceGeneratedParts } from "./generated_parts.ts";
import { type MessageShape, readAggregateFactory } from "./message_shape.ts";
import { messageUnderTest, messageUnderTestPart, type SpecCall } from "./message_maker.ts";

/**
 * The message's spec with kit's part (`// kit:begin message under test`) rewritten from the
 * message's inputs as they are now (and, for a creating command, its aggregate's factory), every
 * other line kept; nothing when the spec is gone or has no such part (a spec written before kit
 * marked it: its tests are the user's to fix).
 */
export async function updatedMessageSpec(
  root: string,
  context: string,
  messagePath: string,
  shape: MessageShape,
): Promise<FileWrite | undefined> {
  const path = `src/contexts/${context}/${
    messagePath.replace(/\.(command|query)\.ts$/, ".spec.ts")
  }`;
  if (!existsSync(join(root, path))) return undefined;
  const current = await readFile(join(root, path), "utf8");
  const part = generatedParts(current).get(messageUnderTestPart);
  if (part === undefined) return undefined;
  const call = callOf(root, context, part.join("\n"));
  const generated = messageUnderTest(
    `${messagePath.endsWith(".query.ts") ? "query" : "command"} ${context}`,
    shape.name,
    shape.inputs,
    call,
  );
  const contents = replaceGeneratedParts(current, generated, path, "");
  return contents === current ? undefined : { path, contents };
}

/**
 * How the spec makes its message, read from the part as it is: what its function is given
 * besides the actor, and the aggregate it makes or acts on (as its doc comment names it).
 */
function callOf(root: string, context: string, part: string): SpecCall {
  if (/\bpage\?: number/.test(part)) return { kind: "page" };
  const creates = /with the id of the new (\w+)/.exec(part)?.[1];
  const on = /on the (\w+) of the id/.exec(part)?.[1];
  if (on !== undefined) return { kind: "on", aggregate: on };
  if (creates === undefined) return { kind: "plain" };
  const domain = join(root, `src/contexts/${context}/domain/${kebabOf(creates)}.ts`);
  return {
    kind: "creates",
    aggregate: creates,
    factory: existsSync(domain) ? readAggregateFactory(domain, creates).parameters : undefined,
  };
}
