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
 * Plans a deployable service `apps/<context>`: the context's module alone, composed on the
 * platform (so its access policy honours the explicit policies of `access-policies.ts`) and served
 * by its own process, with a spec that it composes; recorded under `services` in `kit.config.json`.
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
  composePlatform,
  type PlatformOptions,
} from "../../src/platform/compose-application.ts";
import { ${camel}Module } from "../../src/contexts/${context}/${context}.module.ts";

/**
 * The ${context} service: the ${context} context alone, deployable on its own, on the platform
 * (its providers and repositories, its access policy with the role grants and the explicit
 * policies, events, jobs and the HTTP pipeline).
 */
export function composeService(options: Omit<PlatformOptions, "modules"> = {}) {
  return composePlatform({ ...options, modules: [${camel}Module] });
}
`,
    },
    {
      path: `${dir}/main.ts`,
      create: true,
      contents: `/**
 * Serves the ${context} service on \`PORT\` (default 8000), on the environment the application reads
 * (\`DATABASE_URL\`, the job store of the queue, \`JWT_SECRET\`): its routes, \`/health\` and
 * \`/openapi.json\`.
 */
import { readConfig } from "../../src/platform/config.ts";
import { swaggerUiAssets } from "../../src/platform/http/api-docs.ts";
import { serveApplication } from "../../src/platform/http/serve.ts";
import { readEnvironment } from "../../src/platform/platform-environment.ts";
import { composeService } from "./service.ts";

const config = readConfig(Deno.env.toObject());
const environment = await readEnvironment(config);
const application = composeService({
  ...environment.options,
  docs: swaggerUiAssets,
  startJobs: true,
  startEvents: true,
});
await application.start();
const served = serveApplication(application, { port: config.port });
console.log(\`${context} listening on \${served.url} (\${environment.description})\`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await served.shutdown();
    await application.stop();
    await environment.close();
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
