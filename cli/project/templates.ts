import { kitCommand, verifyTask } from "../check/verify_task.ts";
import { camelOf, type KitConfig, type Orm, pascalOf } from "./kit_config.ts";
import { kitVersion } from "./kit_version.ts";
import { buildTasks, type Runtime } from "./runtime_entry_templates.ts";
import { templateFile } from "../templates/project_template.ts";
import { generatorTemplate } from "../templates/project_template.ts";

export { kitVersion } from "./kit_version.ts";

/**
 * `deno.json` of a generated project (ioredis only when its queue is redis; `@hono/node-server`
 * and `build:node` with a Node entry point, `build:workers` with a Worker). `postgres` is kit's
 * patched postgres.js (`@kit/postgres`; a Worker's bundle takes its Workers build,
 * `@kit/postgres/cf`). A project on Drizzle or Knex imports the ORM and kit's package on it.
 */
export function projectDenoJson(
  links: readonly string[],
  queue: KitConfig["queue"],
  runtimes: readonly Runtime[] = ["deno"],
  orm: Orm = "postgres",
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
        ...ormImports(orm),
        ...(queue === "redis" ? { "ioredis": "npm:ioredis@6.0.0" } : {}),
        ...(runtimes.includes("node")
          ? { "@hono/node-server": "npm:@hono/node-server@2.1.8" }
          : {}),
        "jose": "npm:jose@6.2.17",
        "yaml": "npm:yaml@2.9.1",
        "swagger-ui-dist": "npm:swagger-ui-dist@5.30.2",
      },
      ...(links.length > 0 ? { links } : {}),
      // An ORM's npm package resolves with the optional peers present (drizzle-orm: postgres.js,
      // OpenTelemetry, Upstash; knex: pg), which differ from one run to another: Deno's global cache
      // does not make the second copy such a package then needs (its types go missing), a
      // node_modules folder does.
      ...(orm === "postgres" ? {} : { nodeModulesDir: "auto" }),
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

/** The imports of a project's ORM: kit's package on it and the ORM's own (`pg` under Knex). */
function ormImports(orm: Orm): Record<string, string> {
  if (orm === "drizzle") {
    return {
      "@kit/drizzle": `jsr:@kit/drizzle@^${kitVersion}`,
      "drizzle-orm": "npm:drizzle-orm@0.45.4",
      "drizzle-orm/": "npm:/drizzle-orm@0.45.4/",
      // The peer drizzle-orm's postgres.js driver imports (orm.ts imports it, for Deno to resolve).
      "postgres-js": "npm:postgres@3.4.9",
    };
  }
  if (orm === "knex") {
    return {
      "@kit/knex": `jsr:@kit/knex@^${kitVersion}`,
      "knex": "npm:knex@3.3.0",
      "pg": "npm:pg@8.23.1",
    };
  }
  return {};
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

/** The files of a new context: its CONTEXT.md, module and permissions, and its layers' folders. */
export function contextFiles(name: string, kind: string): { path: string; contents: string }[] {
  const tokens = { name, camel: camelOf(name), pascal: pascalOf(name), kind };
  const base = `src/contexts/${name}`;
  return [
    templateFile("src/contexts/$name$/CONTEXT.md", tokens),
    templateFile("src/contexts/$name$/$name$.module.ts", tokens),
    templateFile("src/contexts/$name$/$name$.permissions.ts", tokens),
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
  return generatorTemplate("init/slices.md", { rows: rows.join("\n") });
}
