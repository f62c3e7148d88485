import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, formatConfig, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";

/** A deployable service as `kit.config.json` records it. */
interface ServiceEntry {
  readonly name: string;
  readonly contexts: readonly string[];
}

/**
 * Plans a deployable service `apps/<context>`: the context's module alone, composed and served by
 * its own process, with a spec that it composes; recorded under `services` in `kit.config.json`.
 */
export async function planService(
  root: string,
  config: KitConfig,
  context: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  const dir = `apps/${context}`;
  if (existsSync(join(root, dir))) {
    throw new CliError(`Service '${context}' exists already (${dir})`);
  }
  const camel = camelOf(context);
  const current = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8")) as
    & KitConfig
    & { services?: ServiceEntry[] };
  const services = [...(current.services ?? []), { name: context, contexts: [context] }]
    .sort((a, b) => a.name.localeCompare(b.name));
  return [
    {
      path: `${dir}/service.ts`,
      create: true,
      contents: `import {
  accessPolicy,
  type ApplicationOptions,
  composeApplication,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryProcessedEvents,
} from "@kit/kernel";
import { grants } from "../../src/platform/auth/role.ts";
import { providers } from "../../src/platform/compose-application.ts";
import { ${camel}Module } from "../../src/contexts/${context}/${context}.module.ts";

/** The ${context} service: the ${context} context alone, deployable on its own. */
export function composeService(
  options: Omit<ApplicationOptions<Record<never, never>>, "modules"> = {},
) {
  return composeApplication({
    modules: [${camel}Module],
    // The platform's providers (repositories, gateways, adapters); those of other contexts are unused.
    providers,
    accessPolicy: accessPolicy({ grants }),
    plugins: {
      events: eventsPlugin({
        outbox: new InMemoryOutbox(),
        processedEvents: new InMemoryProcessedEvents(),
        start: false,
      }),
    },
    ...options,
  });
}
`,
    },
    {
      path: `${dir}/main.ts`,
      create: true,
      contents: `import { composeService } from "./service.ts";

const application = composeService();
await application.start();
const server = Deno.serve({ port: Number(Deno.env.get("PORT") ?? 8000) }, () =>
  Response.json({ status: "ok", service: "${context}" }));
console.log(\`${context} listening on http://localhost:\${server.addr.port}\`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await server.shutdown();
    await application.stop();
    Deno.exit(0);
  });
}
`,
    },
    {
      path: `test/services/${context}.spec.ts`,
      create: true,
      contents: `import assert from "node:assert/strict";
import { composeService } from "../../apps/${context}/service.ts";

Deno.test("the ${context} service composes with its context alone", () => {
  const application = composeService();
  assert.ok(application.commands);
  assert.ok(application.queries);
});
`,
    },
    { path: "kit.config.json", contents: formatConfig({ ...config, services } as KitConfig) },
  ];
}
