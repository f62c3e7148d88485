import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { knipJson } from "../check/knip_json.ts";
import { CliError } from "../cli_error.ts";
import { derivationInputs, isDerivedOutput, recordDerivation } from "../derive/derived_cache.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { updateRegion } from "../files/marker_regions.ts";
import {
  camelOf,
  checkKebab,
  formatConfig,
  type KitConfig,
  type Orm,
  ormOf,
  orms,
} from "../project/kit_config.ts";
import { contextFiles, projectDenoJson, slicesFile } from "../project/templates.ts";
import { projectReadme } from "../project/readme_template.ts";
import { bundles, type Runtime, runtimes } from "../project/runtime_entry_templates.ts";
import { developmentSecret } from "../project/development_secret.ts";
import { generatorTemplate, templateFile, variantFile } from "../templates/project_template.ts";
import { schemaRegistryPath } from "../generators/orm_repository.ts";
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
  /** How its classes are declared: `decorators` (the default) or `builder` (the module builder). */
  readonly declarations?: string;
  /** What its persistence is written with: `postgres` (postgres.js, default), `drizzle`, `knex`. */
  readonly orm?: string;
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
  const queue = selectedQueue(input.queue, selected);
  const declarations = input.declarations ?? "decorators";
  if (declarations !== "decorators" && declarations !== "builder") {
    throw new CliError(`Invalid --declarations '${declarations}': use decorators or builder`);
  }
  const orm = selectedOrm(input.orm, queue);
  const contexts = parsedContexts(input.contexts);
  const links = input.link === undefined ? [] : linkPaths(input.link, orm);
  const config: KitConfig = {
    name: root.split("/").pop() ?? "app",
    contexts,
    relationships: [],
    queue: queue as KitConfig["queue"],
    declarations,
    ...(orm === "postgres" ? {} : { orm }),
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
 * The queue named, by default the database (Redis with Workers: a Worker enqueues to Upstash
 * Redis, which the Deno or Node process running the jobs reads).
 */
function selectedQueue(named: string | undefined, selected: readonly Runtime[]): string {
  const queue = named ?? (selected.includes("workers") ? "redis" : "database");
  if (!["database", "redis", "memory"].includes(queue)) {
    throw new CliError(`Invalid --queue '${queue}': use database, redis or memory`);
  }
  if (selected.includes("workers") && queue !== "redis") {
    throw new CliError(
      `--runtime workers enqueues jobs to Upstash Redis, which the process running them must read: use --queue redis, not '${queue}'`,
    );
  }
  return queue;
}

/** The contexts named as `<name>:<kind>`, each kind core, supporting or generic, each name once. */
function parsedContexts(specs: readonly string[]): { name: string; kind: string }[] {
  const contexts = specs.map((spec) => {
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
  return contexts;
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
  return [
    { path: "kit.config.json", contents: formatConfig(config) },
    { path: "deno.json", contents: projectDenoJson(links, config.queue, selected, ormOf(config)) },
    { path: ".gitignore", contents: ".kit/\nnode_modules/\ndist/\n" },
    { path: "README.md", contents: projectReadme(config, selected) },
    { path: "knip.json", contents: knipJson(ormOf(config)) },
    templateFile("src/main.ts"),
    ...platformFiles(config),
    templateFile("test/application.spec.ts"),
    templateFile("test/contract.spec.ts"),
    templateFile("src/platform/http/api-docs.ts"),
    templateFile("test/architecture/extractable.spec.ts"),
    { path: "docs/architecture/slices.md", contents: slicesFile(config) },
    ...config.contexts.flatMap((c) => contextFiles(c.name, c.kind)),
    ...runtimeFiles(config, selected),
  ];
}

/** The platform's files (`src/platform/`, and the shared kernel's folder). */
function platformFiles(config: KitConfig): FileWrite[] {
  const template = (path: string) => templateFile(path);
  const orm = ormOf(config);
  // An ORM's project: its queue is the database, its files the variant `orm` (orm.ts names it).
  const onQueue = (path: string) =>
    variantFile(path, orm === "postgres" ? config.queue : "orm", "database");
  const onOrm = (path: string) =>
    variantFile(path, orm === "postgres" ? "postgres" : "orm", "postgres");
  return [
    composeApplication(config),
    template("src/platform/auth/role.ts"),
    template("src/platform/function-routes.ts"),
    template("src/platform/auth/tokens.ts"),
    templateFile("src/platform/config.ts", { secret: developmentSecret }),
    template("src/platform/database/database.ts"),
    // Migrated alike on every ORM: kit's numbered SQL migrations, on the platform's client.
    variantFile("src/platform/database/migrate.ts", config.queue, "database"),
    template("src/platform/database/migrations.ts"),
    ...(orm === "postgres" ? [] : ormFiles(orm)),
    template("src/platform/docs/generate-docs.ts"),
    template("src/platform/docs/integration-docs.ts"),
    template("src/platform/docs/is-event.ts"),
    template("src/platform/http/health.ts"),
    template("src/platform/http/platform-fetch.ts"),
    template("src/platform/http/serve.ts"),
    onQueue("src/platform/jobs/job-store.ts"),
    ...(config.queue === "redis" ? [template("src/platform/jobs/redis-job-store.ts")] : []),
    template("src/platform/logging/platform-logger.ts"),
    onOrm("src/platform/platform-environment.ts"),
    template("src/platform/platform-test.module.ts"),
    { path: "src/shared-kernel/.gitkeep", contents: "" },
  ];
}

/** The entry points of the runtimes besides Deno's: Node's, and a Worker's with its store. */
function runtimeFiles(config: KitConfig, selected: readonly Runtime[]): FileWrite[] {
  return [
    ...(selected.includes("node")
      ? [templateFile("src/main.node.ts", { nodeBundle: bundles.node })]
      : []),
    ...(selected.includes("workers")
      ? [
        templateFile("src/worker.ts"),
        templateFile("src/platform/jobs/upstash-job-store.ts"),
        templateFile("wrangler.toml", { project: config.name, workersBundle: bundles.workers }),
      ]
      : []),
  ];
}

/** `src/platform/compose-application.ts` with the module of each of the project's contexts. */
function composeApplication(config: KitConfig): FileWrite {
  const path = "src/platform/compose-application.ts";
  const imports = config.contexts.map((c) =>
    `import { ${camelOf(c.name)}Module } from "../contexts/${c.name}/${c.name}.module.ts";`
  );
  const modules = config.contexts.map((c) => `${camelOf(c.name)}Module,`);
  const orm = ormOf(config);
  const template = variantFile(path, orm === "postgres" ? "postgres" : "orm", "postgres").contents;
  const withImports = updateRegion(template, "module-imports", imports, "compose-application.ts");
  return {
    path,
    contents: updateRegion(withImports, "modules", modules, "compose-application.ts"),
  };
}

/**
 * The ORM named (default postgres.js), or a CliError: an unknown one, or an ORM beside a queue
 * other than the database (its jobs are enqueued in the ORM's transaction, on PostgreSQL).
 */
function selectedOrm(named: string | undefined, queue: string): Orm {
  const orm = named ?? "postgres";
  if (!(orms as readonly string[]).includes(orm)) {
    throw new CliError(`Invalid --orm '${orm}': use postgres, drizzle or knex`);
  }
  if (orm !== "postgres" && queue !== "database") {
    throw new CliError(
      `--orm ${orm} enqueues each job in the ORM's transaction on PostgreSQL: use --queue database, not '${queue}'`,
    );
  }
  return orm as Orm;
}

/**
 * The files of a project on Drizzle or Knex: `src/platform/database/orm.ts` (the ORM's client over
 * the platform's database, its unit of work, outbox and job store) and, on Drizzle, the schema
 * registry `src/platform/database/schema.ts` (every context's tables, for drizzle-kit and
 * Drizzle's queries).
 */
function ormFiles(orm: Exclude<Orm, "postgres">): FileWrite[] {
  return [
    { path: "src/platform/database/orm.ts", contents: generatorTemplate(`init/orm.${orm}.ts`) },
    ...(orm === "drizzle"
      ? [{ path: schemaRegistryPath, contents: generatorTemplate("init/schema.drizzle.ts") }]
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

function linkPaths(checkout: string, orm: Orm): string[] {
  const base = resolve(checkout);
  const packages = [
    "kernel",
    "http",
    "jobs",
    "vendor/postgres",
    ...(orm === "postgres" ? [] : [orm]),
  ]
    .map((name) => join(base, name));
  for (const path of packages) {
    if (!existsSync(join(path, "deno.json"))) {
      throw new CliError(
        `--link '${checkout}' is not a kit checkout: '${path}/deno.json' is missing`,
      );
    }
  }
  return packages;
}
