import { existsSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { planProvider } from "./generate_gateway.ts";
import { checkContext } from "./generate_simple.ts";
import { didYouMean, orRun, portsOf } from "./close_names.ts";

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
      contents: `import type { Registration } from "@kit/kernel";
import { ${port} } from "../application/ports/${kebab}.ts";
${decorated ? `import { retrying } from "./${kebab}.decorators.ts";\n` : ""}
/** ${port} ${external ? "over HTTP, to a system outside the project" : "in this process"}. */
export class ${adapter} implements ${port} {
${
        external
          ? `  constructor(
    private readonly baseUrl: string,
    private readonly fetch: typeof globalThis.fetch = globalThis.fetch,
  ) {}

  /** GETs a path of the external system as JSON; refuses an answer that is not 2xx. */
  protected async getJson(path: string): Promise<unknown> {
    const response = await this.fetch(new URL(path, this.baseUrl));
    if (!response.ok) throw new Error(\`${port}: \${path} answered \${response.status}\`);
    return await response.json();
  }
`
          : ""
      }  // TODO(domain): the operations of ${port}${
        external ? ", each translating the external answer" : ""
      }.
}

/** How the platform provides ${port} in the ${context} context${
        external ? ` (base URL from ${envName})` : ""
      }. */
export const ${registration}: Registration = {
  provide: ${port},
  provider: { useFactory: (): ${port} => ${decorated ? `retrying(${build})` : build} },
};
`,
    },
    {
      path: `${base}/infrastructure/${kebab}.adapter.spec.ts`,
      create: true,
      contents: `import assert from "node:assert/strict";
import { providers } from "../../../platform/compose-application.ts";
${
        external
          ? ""
          : `import { testApplication } from "../../../platform/platform-test.module.ts";
import { ${camelOf(context)}Module } from "../${context}.module.ts";
`
      }import { ${port} } from "../application/ports/${kebab}.ts";
import { ${adapter}, ${registration} } from "./${kebab}.adapter.ts";

Deno.test("${adapter} is provided by the platform for ${port}", () => {
  assert.ok(providers.includes(${registration}));
  assert.equal(${registration}.provide, ${port});
});
${
        external
          ? `
Deno.test("${adapter} reads JSON under its base URL and refuses an error answer", async () => {
  const asked: string[] = [];
  const fetch = (input: string | URL | Request): Promise<Response> => {
    asked.push(String(input));
    return Promise.resolve(
      String(input).endsWith("/missing")
        ? new Response("no", { status: 404 })
        : Response.json({ ok: true }),
    );
  };
  class Probe extends ${adapter} {
    get(path: string): Promise<unknown> {
      return this.getJson(path);
    }
  }
  const probe = new Probe("https://example.test/api/", fetch as typeof globalThis.fetch);
  assert.deepEqual(await probe.get("status"), { ok: true });
  await assert.rejects(() => probe.get("missing"), /answered 404/);
  assert.deepEqual(asked, ["https://example.test/api/status", "https://example.test/api/missing"]);
});
`
          : `
Deno.test("the ${context} context is given ${adapter} where it asks for ${port}", () => {
  const application = testApplication([${camelOf(context)}Module]);
  assert.ok(application.resolve(${port}) instanceof ${adapter});
});
`
      }`,
    },
  ];
  if (decorated) {
    writes.push(
      {
        path: `${base}/infrastructure/${kebab}.decorators.ts`,
        create: true,
        contents: `/**
 * Wraps every method of an adapter so that a rejected call is tried again, up to \`attempts\`
 * times in all; the last error is thrown. For idempotent operations only.
 */
export function retrying<T extends object>(inner: T, attempts = 3): T {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        let last: unknown;
        for (let attempt = 1; attempt <= attempts; attempt++) {
          try {
            return await value.apply(target, args);
          } catch (error) {
            last = error;
          }
        }
        throw last;
      };
    },
  });
}
`,
      },
      {
        path: `${base}/infrastructure/${kebab}.decorators.spec.ts`,
        create: true,
        contents: `import assert from "node:assert/strict";
import { retrying } from "./${kebab}.decorators.ts";

Deno.test("retrying tries a failing call again, then gives up with the last error", async () => {
  let calls = 0;
  const flaky = retrying({
    read(): Promise<string> {
      calls++;
      return calls < 3 ? Promise.reject(new Error(\`fail \${calls}\`)) : Promise.resolve("done");
    },
  });
  assert.equal(await flaky.read(), "done");
  assert.equal(calls, 3);
  const broken = retrying({ read: (): Promise<string> => Promise.reject(new Error("down")) }, 2);
  await assert.rejects(() => broken.read(), /down/);
});
`,
      },
    );
  }
  return await withDerived(root, config, writes);
}
