import { existsSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { planProvider } from "./generate_gateway.ts";
import { checkContext } from "./generate_simple.ts";
import { didYouMean, orRun, portsOf } from "./close_names.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** The options of `kit generate adapter`. */
export interface AdapterOptions {
  /** `external`: an adapter over HTTP to a system outside the project. */
  readonly kind?: string;
  /** Also a retrying decorator of the port, wrapping the adapter in the registration. */
  readonly decorators?: boolean;
}

/**
 * Plans an adapter of an existing port of a context: the class in `infrastructure/`, its
 * registration in the platform's providers region, and a spec (the platform provides it; in
 * process, the context composed by the test platform is given it for the port; external, it reads
 * JSON under its base URL). `--kind external` makes it an
 * HTTP client of a base URL (from the environment, fetch injected); `--decorators` wraps it in a
 * retrying decorator.
 */
export async function planAdapter(
  root: string,
  config: KitConfig,
  context: string,
  port: string,
  options: AdapterOptions,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(port, "port name");
  if (options.kind !== undefined && options.kind !== "external") {
    throw new CliError(`Invalid --kind '${options.kind}' of an adapter: use external`);
  }
  const names = adapterNames(context, port, options);
  checkPortExists(root, names);
  if (existsSync(join(root, names.path))) {
    throw new CliError(`An adapter of '${port}' exists already in context '${context}'`);
  }
  const { kebab, registration } = names;
  return await withDerived(root, config, [
    await planProvider(
      root,
      [`import { ${registration} } from "../contexts/${context}/infrastructure/${kebab}.adapter.ts";`],
      `${registration},`,
    ),
    { path: names.path, create: true, contents: adapterFile(names) },
    {
      path: `${names.base}/infrastructure/${kebab}.adapter.spec.ts`,
      create: true,
      contents: adapterSpec(names),
    },
    ...(names.decorated ? decoratorFiles(names) : []),
  ]);
}

/** The names an adapter's files use. */
interface AdapterNames {
  readonly context: string;
  readonly port: string;
  readonly kebab: string;
  readonly base: string;
  readonly path: string;
  readonly external: boolean;
  readonly decorated: boolean;
  /** The adapter class (`HttpCalendarAdapter` when external). */
  readonly adapter: string;
  /** The provider registration (`schedulingCalendarAdapter`). */
  readonly registration: string;
  /** The environment variable of an external adapter's base URL. */
  readonly envName: string;
}

function adapterNames(context: string, port: string, options: AdapterOptions): AdapterNames {
  const kebab = kebabOf(port);
  const base = `src/contexts/${context}`;
  const external = options.kind === "external";
  return {
    context,
    port,
    kebab,
    base,
    path: `${base}/infrastructure/${kebab}.adapter.ts`,
    external,
    decorated: options.decorators === true,
    adapter: `${external ? "Http" : ""}${port}Adapter`,
    registration: `${camelOf(context)}${port}Adapter`,
    envName: `${context}_${kebab}`.toUpperCase().replaceAll("-", "_") + "_URL",
  };
}

function checkPortExists(root: string, names: AdapterNames): void {
  const { base, kebab, port, context } = names;
  if (!existsSync(join(root, `${base}/application/ports/${kebab}.ts`))) {
    throw new CliError(
      `Port '${port}' does not exist in context '${context}': ${
        orRun(didYouMean(port, portsOf(root, context)))
      }'kit generate port ${context} ${port}' first`,
    );
  }
}

function adapterFile(names: AdapterNames): string {
  const { port, kebab, external, decorated, adapter, envName } = names;
  const build = external
    ? `new ${adapter}(Deno.env.get("${envName}") ?? "http://localhost")`
    : `new ${adapter}()`;
  return generatorTemplate("adapter/adapter.ts", {
    port,
    kebab,
    retryingImport: decorated ? `import { retrying } from "./${kebab}.decorators.ts";\n` : "",
    where: external ? "over HTTP, to a system outside the project" : "in this process",
    adapter,
    httpClient: external ? generatorTemplate("adapter/http-client.part.ts", { port }) : "",
    translating: external ? ", each translating the external answer" : "",
    context: names.context,
    baseUrlFrom: external ? ` (base URL from ${envName})` : "",
    registration: names.registration,
    build: decorated ? `retrying(${build})` : build,
  });
}

/** In process, the context composed by the test platform is given it; external, it reads JSON. */
function adapterSpec(names: AdapterNames): string {
  const { context, port, kebab, adapter, external } = names;
  return generatorTemplate("adapter/adapter.spec.ts", {
    testImports: external ? "" : generatorTemplate("adapter/provided.imports.part.ts", {
      context,
      camel: camelOf(context),
    }),
    port,
    kebab,
    adapter,
    registration: names.registration,
    test: external
      ? generatorTemplate("adapter/http-client.spec.part.ts", { adapter })
      : generatorTemplate("adapter/provided.spec.part.ts", {
        context,
        adapter,
        port,
        camel: camelOf(context),
      }),
  });
}

/** `--decorators`: the retrying decorator of the port and its spec. */
function decoratorFiles({ base, kebab }: AdapterNames): FileWrite[] {
  return [
    {
      path: `${base}/infrastructure/${kebab}.decorators.ts`,
      create: true,
      contents: generatorTemplate("adapter/decorators.ts", {}),
    },
    {
      path: `${base}/infrastructure/${kebab}.decorators.spec.ts`,
      create: true,
      contents: generatorTemplate("adapter/decorators.spec.ts", { kebab }),
    },
  ];
}
