import { kitCommand, verifyTask } from "../check/verify_task.ts";
import { camelOf, type KitConfig, pascalOf } from "./kit_config.ts";
import { kitVersion } from "./kit_version.ts";
import { buildTasks, type Runtime } from "./runtime_entry_templates.ts";

export { kitVersion } from "./kit_version.ts";

/**
 * `deno.json` of a generated project (ioredis only when its queue is redis; `@hono/node-server`
 * and `build:node` with a Node entry point, `build:workers` with a Worker). `postgres` is kit's
 * patched postgres.js (`@kit/postgres`; a Worker's bundle takes its Workers build,
 * `@kit/postgres/cf`).
 */
export function projectDenoJson(
  links: readonly string[],
  queue: KitConfig["queue"],
  runtimes: readonly Runtime[] = ["deno"],
): string {
  return JSON.stringify(
    {
      imports: {
        "@kit/kernel": `jsr:@kit/kernel@^${kitVersion}`,
        "@kit/http": `jsr:@kit/http@^${kitVersion}`,
        "@kit/jobs": `jsr:@kit/jobs@^${kitVersion}`,
        "zod": "npm:zod@4.6.7",
        // kit's patched postgres.js (a Worker's bundle maps it to its Workers build, /cf).
        "postgres": `jsr:@kit/postgres@^${kitVersion}`,
        "@upstash/redis": "npm:@upstash/redis@1.39.0",
        ...(queue === "redis" ? { "ioredis": "npm:ioredis@6.0.0" } : {}),
        ...(runtimes.includes("node")
          ? { "@hono/node-server": "npm:@hono/node-server@2.1.8" }
          : {}),
        "jose": "npm:jose@6.2.17",
        "yaml": "npm:yaml@2.9.1",
        "swagger-ui-dist": "npm:swagger-ui-dist@5.30.2",
      },
      ...(links.length > 0 ? { links } : {}),
      compilerOptions: { strict: true, noUncheckedIndexedAccess: true },
      tasks: {
        dev: devTask(links),
        test: "deno test -A",
        verify: verifyTask(links),
        "docs:generate": "deno run -A src/platform/docs/generate-docs.ts",
        "docs:check": "deno run -A src/platform/docs/generate-docs.ts --check",
        ...buildTasks(runtimes),
      },
      test: { include: ["src/**/*.spec.ts", "test/**/*.spec.ts"] },
      fmt: { exclude: ["openapi/", "docs/integration/"] },
      lint: { rules: { tags: ["recommended"] }, plugins: lintPlugins(links) },
      exclude: [".kit", "dist"],
    },
    null,
    2,
  ) + "\n";
}

/**
 * The `dev` task of a generated project: `kit dev`, `kit docs --watch` beside
 * `deno run --watch src/main.ts`, so that a file written by hand under `src/contexts/` (a
 * controller, a handler) is in its context's barrel, and served, once saved: the regenerated
 * barrel restarts the server. Ctrl-C (SIGINT) or SIGTERM stops both (`commands/dev.ts`).
 */
function devTask(links: readonly string[]): string {
  return `${kitCommand(links)} dev`;
}

/**
 * The lint plugins of a generated project: `authz/declared` and `presentation/guard-at-the-edge`,
 * from JSR, or from the kit checkout the project is linked to.
 */
function lintPlugins(links: readonly string[]): string[] {
  const checkout = links[0]?.replace(/\/[^/]+\/?$/, "");
  return checkout === undefined
    ? [`jsr:@kit/cli@^${kitVersion}/lint/authz`, `jsr:@kit/cli@^${kitVersion}/lint/presentation`]
    : [`${checkout}/cli/lint/authz_plugin.ts`, `${checkout}/cli/lint/presentation_plugin.ts`];
}

/** `src/platform/platform-test.module.ts`: the application specs compose. */
export function platformTestFile(): string {
  return `import {
  accessPolicy,
  composeApplication,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  type Module,
  type Registration,
  type RoleGrants,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { InMemoryJobStore, jobsPlugin } from "@kit/jobs";
import { signToken, type TokenClaims } from "./auth/tokens.ts";
import { memoryRepositories, platformHttp, providers } from "./compose-application.ts";
import { swaggerUiAssets } from "./http/api-docs.ts";

/** The secret of the specs' tokens (a new one each run). */
const testSecret = crypto.getRandomValues(new Uint8Array(32));

/**
 * A bearer token the test application's HTTP pipeline accepts: \`application.http.fetch\` with
 * \`authorization: Bearer <token>\` calls the routes as that caller.
 */
export function testToken(claims: TokenClaims): Promise<string> {
  return signToken(testSecret, claims);
}

/**
 * An application for specs: the modules given; the platform's providers and in-memory
 * repositories, where the providers given (fakes of ports) replace those of the same port;
 * in-memory events and jobs; a test clock; the platform's HTTP pipeline, taking the tokens of
 * \`testToken\` and answering 500 for an error code a route does not declare.
 */
export function testApplication(
  modules: readonly Module[],
  options: { grants?: RoleGrants; clock?: TestClock; providers?: readonly Registration[] } = {},
) {
  const given = options.providers ?? [];
  const replaced = new Set(given.map((registration) => registration.provide));
  return composeApplication({
    modules,
    providers: [
      ...[...providers, ...memoryRepositories].filter((registration) =>
        !replaced.has(registration.provide)
      ),
      ...given,
    ],
    clock: options.clock ?? new TestClock(),
    accessPolicy: accessPolicy({ grants: options.grants ?? {} }),
    plugins: {
      events: eventsPlugin({
        outbox: new InMemoryOutbox(),
        processedEvents: new InMemoryProcessedEvents(),
        start: false,
      }),
      backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }),
      http: platformHttp({ jwtSecret: testSecret, undeclaredErrors: "refuse", docs: swaggerUiAssets }),
    },
  });
}
`;
}

/**
 * `src/platform/function-routes.ts`: the function routes (\`defineRoute\`) of every context, which
 * the platform's HTTP pipeline serves (\`kit generate route --function\` adds each).
 */
export function functionRoutesFile(): string {
  return `import type { FunctionRoute } from "@kit/http";
// kit:begin function-route-imports
// kit:end

/** The function routes (\`defineRoute\`) of every context, sorted. */
export const functionRoutes: readonly FunctionRoute[] = [
  // kit:begin function-routes
  // kit:end
];
`;
}

/** `src/platform/auth/role.ts`: roles and the permissions granted to each. */
export function roleFile(): string {
  return `import type { RoleGrants } from "@kit/kernel";
// kit:begin permission-imports
// kit:end

/** The permissions granted to each role. */
export const grants: RoleGrants = {
  // kit:begin grants
  // kit:end
};
`;
}

/** The smoke spec: the application composes with every context's module. */
export function applicationSpec(): string {
  return `import assert from "node:assert/strict";
import { composePlatform, modules } from "../src/platform/compose-application.ts";

Deno.test("the application composes with every context's module", () => {
  const application = composePlatform();
  assert.ok(application.commands);
  assert.ok(application.http.openapi().paths);
  assert.deepEqual(modules.map((module) => module.name), [...modules.map((m) => m.name)].sort());
});
`;
}

/**
 * The contract spec, run by \`deno task verify\` and \`deno task test\`: the platform composes
 * (a route declaring a code of unknown status is refused there), serves its OpenAPI document and
 * docs page, and every route, called with no token, answers as the document says (through
 * \`validatingFetch\`, with undeclared codes refused).
 */
export function contractSpec(): string {
  return `import assert from "node:assert/strict";
import { validatingFetch } from "@kit/http/testing";
import { composePlatform } from "../src/platform/compose-application.ts";
import { swaggerUiAssets } from "../src/platform/http/api-docs.ts";

/**
 * The paths answered with pages (HTML, CSS, script), which the OpenAPI document does not describe
 * (it describes JSON bodies): their answers are not checked. Add a mounted page's between the
 * markers (the jobs dashboard's: \`/^\\/ops\\/jobs(\\/assets\\/.*)?$/,\`).
 */
const pages: readonly RegExp[] = [
  /^\\/docs/,
  // kit:begin pages
  // kit:end
];

/** The platform as specs compose it: an answer with a code its route does not declare is a 500. */
function platform() {
  const application = composePlatform({ undeclaredErrors: "refuse", docs: swaggerUiAssets });
  const fetch = validatingFetch(application.http.fetch, () => application.http.openapi(), {
    skip: (request) => pages.some((page) => page.test(new URL(request.url).pathname)),
  });
  return { application, fetch };
}

Deno.test("the platform serves its OpenAPI document (JSON and YAML) and its docs page", async () => {
  const { application } = platform();
  const json = await application.http.fetch(new Request("http://api.test/openapi.json"));
  assert.equal(json.status, 200);
  assert.match(json.headers.get("content-type") ?? "", /^application\\/json/);
  assert.deepEqual(await json.json(), application.http.openapi());
  const yaml = await application.http.fetch(new Request("http://api.test/openapi.yaml"));
  assert.equal(yaml.status, 200);
  assert.match(await yaml.text(), /^openapi: /m);
  const docs = await application.http.fetch(new Request("http://api.test/docs"));
  assert.equal(docs.status, 200);
  assert.match(docs.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  assert.match(await docs.text(), /<title>/);
});

Deno.test("every route answers a caller without a token as the OpenAPI document says", async () => {
  const { application, fetch } = platform();
  const document = application.http.openapi() as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  for (const [template, operations] of Object.entries(document.paths)) {
    const path = template.replace(/\\{[^}]+\\}/g, "x");
    for (const [method, operation] of Object.entries(operations)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const response = await fetch(
        new Request(\`http://api.test\${path}\`, {
          method: method.toUpperCase(),
          ...(operation.requestBody === undefined
            ? {}
            : { headers: { "content-type": "application/json" }, body: "{}" }),
        }),
      );
      await response.body?.cancel();
      assert.ok(response.status < 500, \`\${method.toUpperCase()} \${path} answered \${response.status}\`);
    }
  }
});
`;
}

/** The architecture check: a context imports no other context's internals. */
export function extractableSpec(): string {
  return `import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";

const root = new URL("../../", import.meta.url).pathname;

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await files(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

Deno.test("a context imports another context only through its published language", async () => {
  const contexts = join(root, "src/contexts");
  const offences: string[] = [];
  for (const file of await files(contexts)) {
    const own = relative(contexts, file).split("/")[0];
    const text = await readFile(file, "utf8");
    for (const [, specifier] of text.matchAll(/from\\s+["']([^"']+)["']/g)) {
      const target = join(file, "..", specifier!);
      const rel = relative(contexts, target).split("/");
      if (!specifier!.startsWith(".") || rel[0] === ".." || rel[0] === own) continue;
      if (rel[1] !== "published-language") offences.push(\`\${relative(root, file)} imports \${specifier}\`);
    }
  }
  assert.deepEqual(offences, []);
});
`;
}

/** The files of a new context. */
export function contextFiles(name: string, kind: string): { path: string; contents: string }[] {
  const camel = camelOf(name);
  const base = `src/contexts/${name}`;
  return [
    {
      path: `${base}/CONTEXT.md`,
      contents:
        `# ${
          pascalOf(name)
        } (${kind})\n\nWhat this context is responsible for, in a paragraph (hand-written).\n\n` +
        `<!-- kit:begin generated -->\n<!-- kit:end -->\n`,
    },
    {
      path: `${base}/${name}.module.ts`,
      contents: `import { defineModule, type Module } from "@kit/kernel";
import { ${camel}Declarations } from "./${name}.declarations.ts";
import { ${camel}Dependencies } from "./${name}.dependencies.ts";

/** The module of the ${name} context. */
export const ${camel}Module: Module = defineModule("${name}", {
  declarations: ${camel}Declarations,
  dependencies: ${camel}Dependencies,
});
`,
    },
    {
      path: `${base}/${name}.permissions.ts`,
      contents: `import { definePermissions } from "@kit/kernel";

/** The permissions of the ${name} context. */
export const ${camel}Permissions = definePermissions("${name}", {
  // kit:begin permissions
  // kit:end
});
`,
    },
    ...[
      "domain",
      "application/commands",
      "application/queries",
      "application/background",
      "application/ports",
      "infrastructure",
      "presentation/http",
      "published-language",
    ].map((dir) => ({
      path: `${base}/${dir}/.gitkeep`,
      contents: "",
    })),
  ];
}

/** `docs/architecture/slices.md` with the bootstrap rows. */
export function slicesFile(config: KitConfig): string {
  const rows = [
    "| # | Context | Kind | Slice | Start with | Depends on | Owner | Status |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  let n = 1;
  rows.push(
    `| ${n++} | platform | skeleton | Bootstrap: contexts, platform, CI | \`kit init\` | | conductor | done |`,
  );
  for (const context of config.contexts) {
    rows.push(
      `| ${n++} | ${context.name} | contract | Published language of ${context.name} | \`kit generate integration-event ${context.name} ...\` | 1 | conductor | todo |`,
    );
  }
  return `# Slice plan\n\nOnly the conductor edits this file. Contracts and skeletons belong to the conductor, slices to the worker of the context.\n\n${
    rows.join("\n")
  }\n`;
}
