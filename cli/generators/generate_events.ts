import { existsSync } from "node:fs";

import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";

/**
 * Plans an integration event in the context's published language: its declaration (type
 * `<context>.<element>.<fact>`, version 1, a zod payload) and a spec building one from it.
 */
export async function planIntegrationEvent(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "event name");
  const kebab = kebabOf(name);
  const parts = kebab.split("-");
  if (parts.length < 2) {
    throw new CliError(
      `Invalid event name '${name}': name the element and the fact (AppointmentBooked)`,
    );
  }
  const type = `${context}.${parts.slice(0, -1).join("-")}.${parts.at(-1)}`;
  const path = `src/contexts/${context}/published-language/${kebab}.event.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Event '${name}' exists already in context '${context}'`);
  }
  return await withDerived(root, config, [
    {
      path,
      create: true,
      contents: `import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** ${type}: a fact other contexts react to. Its payload is the published contract: change it with a new version. */
export const ${name} = defineIntegrationEvent({
  type: "${type}",
  version: 1,
  payload: z.object({
    // TODO(domain): the facts consumers need, as primitives and ids.
    id: z.string(),
  }),
});
`,
    },
    {
      path: `src/contexts/${context}/published-language/${kebab}.event.spec.ts`,
      create: true,
      contents: `import assert from "node:assert/strict";
import { ${name} } from "./${kebab}.event.ts";

Deno.test("${name} is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await ${name}.create({ id: "x1" });
  assert.equal(event.type, "${type}");
  assert.equal(event.version, 1);
  await assert.rejects(() => ${name}.create({ id: 1 } as never), /payload of event '${type}' v1 is invalid/);
});
`,
    },
  ]);
}

/**
 * Plans a consumer of another context's event: an idempotent `@HandlesEvent` handler named
 * `<context>.<upstream>-<event>` and a spec that delivers events built from the declaration.
 */
export async function planIntegrationHandler(
  root: string,
  config: KitConfig,
  context: string,
  event: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(event, "event name");
  const kebab = kebabOf(event);
  let upstream: string | undefined;
  for (const candidate of config.contexts) {
    if (
      existsSync(
        join(root, "src/contexts", candidate.name, "published-language", `${kebab}.event.ts`),
      )
    ) {
      upstream = candidate.name;
    }
  }
  if (upstream === undefined) {
    throw new CliError(
      `No context publishes '${event}': generate it first with 'kit generate integration-event <context> ${event}'`,
    );
  }
  const name = `${camelOf(upstream).charAt(0).toUpperCase()}${
    camelOf(upstream).slice(1)
  }${event}Handler`;
  const handlerName = `${context}.${upstream}-${kebab}`;
  const dir = `src/contexts/${context}/application/reactions`;
  const file = `${upstream}-${kebab}.handler.ts`;
  if (existsSync(join(root, dir, file))) throw new CliError(`'${handlerName}' exists already`);
  return await withDerived(root, config, [
    {
      path: `${dir}/${file}`,
      create: true,
      contents:
        `import { HandlesEvent, type IntegrationEvent, type EventPayloadOf, processOnce, type ProcessedEvents } from "@kit/kernel";
import { ${event} } from "../../../${upstream}/published-language/${kebab}.event.ts";

/** Reacts to ${event} of ${upstream}, once per event (a redelivery is ignored). */
@HandlesEvent(${event}, { name: "${handlerName}" })
export class ${name} {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(event: IntegrationEvent<EventPayloadOf<typeof ${event}>>): Promise<void> {
    await processOnce(this.processed, "${handlerName}", event, () => {
      // TODO(domain): what ${context} does when ${upstream} says ${kebab.replaceAll("-", " ")}.
      return Promise.resolve();
    });
  }
}
`,
    },
  ]);
}
