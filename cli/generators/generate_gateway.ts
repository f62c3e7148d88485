import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import {
  camelOf,
  checkKebab,
  formatConfig,
  type KitConfig,
  pascalOf,
} from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { generatorTemplate } from "../templates/project_template.ts";

const composePath = "src/platform/compose-application.ts";

/**
 * Plans the registration of a provider in the platform's `providers` region (and its import),
 * text outside the markers untouched.
 */
export async function planProvider(
  root: string,
  importLines: readonly string[],
  entry: string,
): Promise<FileWrite> {
  const text = await readFile(join(root, composePath), "utf8");
  let next = updateRegion(text, "provider-imports", [
    ...readRegion(text, "provider-imports", composePath),
    ...importLines,
  ], composePath);
  next = updateRegion(next, "providers", [
    ...readRegion(next, "providers", composePath),
    entry,
  ], composePath);
  return { path: composePath, contents: next };
}

/**
 * Plans a gateway of `context` to its upstream context: the port in the downstream's words, an
 * adapter that reads the upstream's published language only, its registration with the platform,
 * a spec, and the relationship in `kit.config.json` (so the context map shows it).
 */
export async function planGateway(
  root: string,
  config: KitConfig,
  context: string,
  upstream: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkKebab(upstream, "upstream context");
  checkContext(config, upstream);
  if (upstream === context) throw new CliError(`A context is not upstream of itself`);
  const base = `src/contexts/${context}`;
  const port = `${pascalOf(upstream)}Gateway`;
  const portPath = `${base}/application/ports/${upstream}-gateway.ts`;
  if (existsSync(join(root, portPath))) {
    throw new CliError(`Gateway '${port}' exists already in context '${context}'`);
  }
  const relationships = [
    ...config.relationships.filter((r) => !(r.upstream === upstream && r.downstream === context)),
    { upstream, downstream: context },
  ];
  const current = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8")) as KitConfig;
  const registration = `${camelOf(context)}${port}`;
  const writes: FileWrite[] = [
    { path: "kit.config.json", contents: formatConfig({ ...current, relationships }) },
    await planProvider(
      root,
      [
        `import { ${registration} } from "../contexts/${context}/infrastructure/${upstream}.gateway.ts";`,
      ],
      `${registration},`,
    ),
    {
      path: portPath,
      create: true,
      contents: generatorTemplate("gateway/gateway-port.ts", { context, upstream, port }),
    },
    ...gatewayFiles(context, upstream, port, registration),
  ];
  return await withDerived(root, { ...config, relationships }, writes);
}

/** The adapter reading the upstream's published language, and its spec. */
function gatewayFiles(
  context: string,
  upstream: string,
  port: string,
  registration: string,
): FileWrite[] {
  const base = `src/contexts/${context}`;
  const adapter = `${port}Adapter`;
  return [
    {
      path: `${base}/infrastructure/${upstream}.gateway.ts`,
      create: true,
      contents: generatorTemplate("gateway/gateway.ts", {
        port,
        upstream,
        context,
        adapter,
        registration,
      }),
    },
    {
      path: `${base}/infrastructure/${upstream}.gateway.spec.ts`,
      create: true,
      contents: generatorTemplate("gateway/gateway.spec.ts", {
        port,
        upstream,
        adapter,
        registration,
      }),
    },
  ];
}
