import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { knipJson } from "../check/knip_json.ts";
import { CliError } from "../cli_error.ts";
import { derivationInputs, isDerivedOutput, recordDerivation } from "../derive/derived_cache.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { updateRegion } from "../files/marker_regions.ts";
import { camelOf, checkKebab, formatConfig, type KitConfig } from "../project/kit_config.ts";
import {
  applicationSpec,
  contextFiles,
  contractSpec,
  extractableSpec,
  functionRoutesFile,
  platformTestFile,
  projectDenoJson,
  roleFile,
  slicesFile,
} from "../project/templates.ts";
import { composeApplicationFile } from "../project/compose_template.ts";
import { healthFile, platformLoggerFile } from "../project/health_templates.ts";
import { configFile, platformFetchFile } from "../project/config_template.ts";
import { generateDocsFile, integrationDocsFile, isEventFile } from "../project/docs_templates.ts";
import {
  apiDocsFile,
  databaseFile,
  environmentFile,
  jobStoreFile,
  mainFile,
  migrateFile,
  redisJobStoreFile,
  serveFile,
  tokensFile,
} from "../project/runtime_templates.ts";
import { projectReadme } from "../project/readme_template.ts";
import {
  nodeMainFile,
  type Runtime,
  runtimes,
  upstashJobStoreFile,
  workerFile,
  wranglerToml,
} from "../project/runtime_entry_templates.ts";
import { migrationsListFile } from "../generators/repository_templates.ts";
import { migrationsListPath } from "../generators/generate_repository.ts";
import { withDerived } from "./docs.ts";

/** What `kit init` is told. */
export interface InitInput {
  /** `<name>:<kind>` per context. */
  readonly contexts: readonly string[];
  /** The job store. */
  readonly queue?: string;
  /** A kit checkout whose packages the project links (Deno `links`). */
  readonly link?: string;
  /** The runtimes it runs on (`deno`, `node`, `workers`; default `deno`): an entry point each. */
  readonly runtimes?: readonly string[];
}

/**
 * Lays out a new project in `dir` (empty or missing): config, platform, contexts, architecture
 * check, slice plan and context map. Answers the files written.
 */
export async function initProject(dir: string, input: InitInput): Promise<readonly string[]> {
  const root = resolve(dir);
  if (existsSync(root) && (await readdir(root)).some((entry) => entry !== ".git")) {
    throw new CliError(`'${root}' is not empty: kit init lays out a new project`);
  }
  if (input.contexts.length === 0) {
    throw new CliError(
      "init: name the project's bounded contexts, each with its kind (core, supporting or generic): kit init shop --context catalog:core --context billing:supporting",
    );
  }
  const selected = selectedRuntimes(input.runtimes ?? []);
  // A Worker enqueues to Upstash Redis, which the Deno or Node process running the jobs reads.
  const queue = input.queue ?? (selected.includes("workers") ? "redis" : "database");
  if (!["database", "redis", "memory"].includes(queue)) {
    throw new CliError(`Invalid --queue '${queue}': use database, redis or memory`);
  }
  if (selected.includes("workers") && queue !== "redis") {
    throw new CliError(
      `--runtime workers enqueues jobs to Upstash Redis, which the process running them must read: use --queue redis, not '${queue}'`,
    );
  }
  const contexts = input.contexts.map((spec) => {
    const [name, kind, ...rest] = spec.split(":");
    if (!name || !kind || rest.length > 0) {
      throw new CliError(`Invalid --context '${spec}': use <name>:<kind>`);
    }
    checkKebab(name, "context name");
    if (!["core", "supporting", "generic"].includes(kind)) {
      throw new CliError(
        `Invalid kind '${kind}' of context '${name}': use core, supporting or generic`,
      );
    }
    return { name, kind };
  });
  if (new Set(contexts.map((c) => c.name)).size !== contexts.length) {
    throw new CliError("A context is named twice");
  }
  const links = input.link === undefined ? [] : linkPaths(input.link);
  const config: KitConfig = {
    name: root.split("/").pop() ?? "app",
    contexts,
    relationships: [],
    queue: queue as KitConfig["queue"],
    declarations: "decorators",
  };
  const writes = projectFiles(config, links, selected);
  const plan = await formatPlan(root, await withDerived(root, config, writes));
  const written = await applyPlan(root, plan);
  // Every context was derived: the first `docs --check` (and generator) finds them current.
  await recordDerivation(
    root,
    await derivationInputs(root),
    new Map(plan.filter((w) => isDerivedOutput(w.path)).map((w) => [w.path, w.contents])),
  );
  return written;
}

/**
 * The files `kit init` writes for `config`, before they are formatted and before the derived
 * documents join them: the same plan a test compares a project (the example) against.
 *
 * @param config The project's contexts, queue and name.
 * @param links The kit packages its `deno.json` links (none: from JSR).
 * @param selected The runtimes it gets an entry point for.
 * @returns The files to write, by path from the project's root.
 */
export function projectFiles(
  config: KitConfig,
  links: readonly string[],
  selected: readonly Runtime[],
): FileWrite[] {
  let compose = composeApplicationFile();
  compose = updateRegion(
    compose,
    "module-imports",
    config.contexts.map((c) =>
      `import { ${camelOf(c.name)}Module } from "../contexts/${c.name}/${c.name}.module.ts";`
    ),
    "compose-application.ts",
  );
  compose = updateRegion(
    compose,
    "modules",
    config.contexts.map((c) => `${camelOf(c.name)}Module,`),
    "compose-application.ts",
  );
  return [
    { path: "kit.config.json", contents: formatConfig(config) },
    { path: "deno.json", contents: projectDenoJson(links, config.queue, selected) },
    { path: ".gitignore", contents: ".kit/\nnode_modules/\ndist/\n" },
    { path: "README.md", contents: projectReadme(config, selected) },
    { path: "knip.json", contents: knipJson() },
    { path: "src/main.ts", contents: mainFile() },
    { path: "src/platform/compose-application.ts", contents: compose },
    { path: "src/platform/auth/role.ts", contents: roleFile() },
    { path: "src/platform/function-routes.ts", contents: functionRoutesFile() },
    { path: "src/platform/auth/tokens.ts", contents: tokensFile() },
    { path: "src/platform/config.ts", contents: configFile() },
    { path: "src/platform/database/database.ts", contents: databaseFile() },
    { path: "src/platform/database/migrate.ts", contents: migrateFile(config.queue) },
    { path: migrationsListPath, contents: migrationsListFile() },
    { path: "src/platform/docs/generate-docs.ts", contents: generateDocsFile() },
    { path: "src/platform/docs/integration-docs.ts", contents: integrationDocsFile() },
    { path: "src/platform/docs/is-event.ts", contents: isEventFile() },
    { path: "src/platform/http/health.ts", contents: healthFile() },
    { path: "src/platform/http/platform-fetch.ts", contents: platformFetchFile() },
    { path: "src/platform/http/serve.ts", contents: serveFile() },
    { path: "src/platform/jobs/job-store.ts", contents: jobStoreFile(config.queue) },
    ...(config.queue === "redis"
      ? [{ path: "src/platform/jobs/redis-job-store.ts", contents: redisJobStoreFile() }]
      : []),
    { path: "src/platform/logging/platform-logger.ts", contents: platformLoggerFile() },
    { path: "src/platform/platform-environment.ts", contents: environmentFile() },
    { path: "src/platform/platform-test.module.ts", contents: platformTestFile() },
    { path: "src/shared-kernel/.gitkeep", contents: "" },
    { path: "test/application.spec.ts", contents: applicationSpec() },
    { path: "test/contract.spec.ts", contents: contractSpec() },
    { path: "src/platform/http/api-docs.ts", contents: apiDocsFile() },
    { path: "test/architecture/extractable.spec.ts", contents: extractableSpec() },
    { path: "docs/architecture/slices.md", contents: slicesFile(config) },
    ...config.contexts.flatMap((c) => contextFiles(c.name, c.kind)),
    ...(selected.includes("node") ? [{ path: "src/main.node.ts", contents: nodeMainFile() }] : []),
    ...(selected.includes("workers")
      ? [
        { path: "src/worker.ts", contents: workerFile() },
        { path: "src/platform/jobs/upstash-job-store.ts", contents: upstashJobStoreFile() },
        { path: "wrangler.toml", contents: wranglerToml(config.name) },
      ]
      : []),
  ];
}

/** The runtimes named (each once; default Deno alone), or a CliError naming one unknown. */
function selectedRuntimes(named: readonly string[]): Runtime[] {
  for (const runtime of named) {
    if (!(runtimes as readonly string[]).includes(runtime)) {
      throw new CliError(`Invalid --runtime '${runtime}': use deno, node or workers`);
    }
  }
  return named.length === 0 ? ["deno"] : runtimes.filter((runtime) => named.includes(runtime));
}

function linkPaths(checkout: string): string[] {
  const base = resolve(checkout);
  const packages = ["kernel", "http", "jobs", "vendor/postgres"].map((name) => join(base, name));
  for (const path of packages) {
    if (!existsSync(join(path, "deno.json"))) {
      throw new CliError(
        `--link '${checkout}' is not a kit checkout: '${path}/deno.json' is missing`,
      );
    }
  }
  return packages;
}
