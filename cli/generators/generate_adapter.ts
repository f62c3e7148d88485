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
  const kebab = kebabOf(port);
  const base = `src/contexts/${context}`;
  if (!existsSync(join(root, `${base}/application/ports/${kebab}.ts`))) {
    throw new CliError(
      `Port '${port}' does not exist in context '${context}': ${
        orRun(didYouMean(port, portsOf(root, context)))
      }'kit generate port ${context} ${port}' first`,
    );
  }
  const path = `${base}/infrastructure/${kebab}.adapter.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`An adapter of '${port}' exists already in context '${context}'`);
  }
  const external = options.kind === "external";
  const adapter = `${external ? "Http" : ""}${port}Adapter`;
  const registration = `${camelOf(context)}${port}Adapter`;
  const envName = `${context}_${kebab}`.toUpperCase().replaceAll("-", "_") + "_URL";
  const decorated = options.decorators === true;
  const build = external
    ? `new ${adapter}(Deno.env.get("${envName}") ?? "http://localhost")`
    : `new ${adapter}()`;
  const writes: FileWrite[] = [
    await planProvider(
      root,
      [`import { ${registration} } from "../contexts/${context}/infrastructure/${kebab}.adapter.ts";`],
      `${registration},`,
    ),
    {
      path,
      create: true,
      contents: generatorTemplate("adapter/adapter.ts", {
        port,
        kebab,
        retryingImport: decorated ? `import { retrying } from "./${kebab}.decorators.ts";\n` : "",
        where: external ? "over HTTP, to a system outside the project" : "in this process",
        adapter,
        httpClient: external ? generatorTemplate("adapter/http-client.part.ts", { port }) : "",
        translating: external ? ", each translating the external answer" : "",
        context,
        baseUrlFrom: external ? ` (base URL from ${envName})` : "",
        registration,
        build: decorated ? `retrying(${build})` : build,
      }),
    },
    {
      path: `${base}/infrastructure/${kebab}.adapter.spec.ts`,
      create: true,
      contents: generatorTemplate("adapter/adapter.spec.ts", {
        testImports: external ? "" : generatorTemplate("adapter/provided.imports.part.ts", {
          context,
          camel: camelOf(context),
        }),
        port,
        kebab,
        adapter,
        registration,
        test: external
          ? generatorTemplate("adapter/http-client.spec.part.ts", { adapter })
          : generatorTemplate("adapter/provided.spec.part.ts", {
            context,
            adapter,
            port,
            camel: camelOf(context),
          }),
      }),
    },
  ];
  if (decorated) {
    writes.push(
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
    );
  }
  return await withDerived(root, config, writes);
}
