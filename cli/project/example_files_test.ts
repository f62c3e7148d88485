/**
 * The example keeps the platform and docs files `kit init` writes from the templates of
 * `cli/templates/project/` (the same path there), byte for byte once formatted with the
 * example's settings and with the entries of its own marker regions (what the generators
 * and the example's authors put between `// kit:begin` and `// kit:end`): it was made with the
 * generators and stays regenerable. A template changed without the example (or the reverse) fails
 * here. The files it does not keep as generated are named below with the reason; one of them
 * that comes to match fails too, so that the list stays true.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { projectFiles } from "../commands/init.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { formatPlan } from "../files/format_files.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { embeddedTemplates } from "../templates/embedded.ts";
import type { KitConfig } from "./kit_config.ts";

const example = fileURLToPath(new URL("../../example/", import.meta.url));

/** Files `kit init` writes that are the project's own record, not a platform or docs template. */
const projectsOwn = new Set([
  "kit.config.json", // its contexts and relationships, kept by the generators
  "deno.json", // the example is a member of kit's workspace: no imports or links of its own
  "README.md", // the example is documented by kit's README and docs/
  "docs/architecture/slices.md", // the slice plan, kept by `kit slice`
]);

/**
 * A context's files `kit init` writes that the context grows by hand: its module (its ports bound
 * to adapters) and its CONTEXT.md (an introduction; the lists in it are derived, and
 * `kit docs --check` keeps them current).
 */
function contextsOwn(path: string): boolean {
  return path.startsWith("src/contexts/") &&
    (path.endsWith(".module.ts") || path.endsWith("/CONTEXT.md"));
}

/** The example's files that are not what kit generates, and why. */
const differences: Record<string, string> = {
  "src/main.ts":
    "runs on an embedded PostgreSQL (PGlite: one connection, jobs without LISTEN) when DATABASE_URL is unset, seeds two practices, takes Redis or Upstash as its job store beside a database queue, serves readiness checks and prints sample tokens: the template runs in memory without DATABASE_URL, through platform-environment.ts (which the example's apps/worker uses)",
  "src/platform/compose-application.ts":
    "mounts the jobs dashboard, keeps idempotency keys on PostgreSQL, maps its codes to statuses (status-by-code.ts), sets the worker's concurrency and the API's info, and its contexts register their PostgreSQL repositories in their modules (the Database token) instead of the template's repository regions",
  "src/platform/platform-test.module.ts":
    "the specs run the whole platform on PostgreSQL (createTestDatabase: a database each, migrated; startTestPlatform): the template's test module composes contexts in memory with the providers and memory repositories of compose-application.ts, which the example's does not have (see it)",
  "src/platform/database/migrate.ts":
    "each context migrates its own schema with its own ledger (test/database/tenant-migrations.spec.ts): the template keeps one ordered list (migrations.ts)",
  "src/platform/database/migrations.ts": "see migrate.ts: the example's migrations are per context",
};

/** The files `kit init` plans for the example's contexts and queue, but the project's own. */
function plannedFiles(): FileWrite[] {
  const config = JSON.parse(readFileSync(join(example, "kit.config.json"), "utf8")) as KitConfig;
  return projectFiles(config, [], ["deno"]).filter((write) =>
    !contextsOwn(write.path) && !write.path.endsWith(".gitkeep") && !projectsOwn.has(write.path)
  );
}

/** `template` with the entries the example keeps in each of its marker regions. */
function withExampleRegions(path: string, template: string): string {
  const file = join(example, path);
  if (!existsSync(file)) return template;
  const kept = readFileSync(file, "utf8");
  let filled = template;
  for (const [, region] of template.matchAll(/^\s*\/\/ kit:begin (\S+)$/gm)) {
    if (!kept.includes(`// kit:begin ${region}`)) continue;
    filled = updateRegion(filled, region!, readRegion(kept, region!, path), path);
  }
  return filled;
}

Deno.test("the example's platform and docs files are what kit generates, with its regions' entries", async () => {
  const planned = plannedFiles().map((write) => ({
    ...write,
    contents: withExampleRegions(write.path, write.contents),
  }));
  const matching: string[] = [];
  for (const write of await formatPlan(example, planned)) {
    const file = join(example, write.path);
    const same = existsSync(file) && readFileSync(file, "utf8") === write.contents;
    if (same) matching.push(write.path);
    if (write.path in differences) {
      assert.ok(!same, `example/${write.path} now matches: take it off the list of differences`);
    } else {
      assert.ok(same, `example/${write.path} differs from what kit generates`);
    }
  }
  // The copies come from the templates: each is one, a context's under its `$name$`.
  const template = (path: string) =>
    path.replace(/^src\/contexts\/([^/]+)\/\1\./, "src/contexts/$name$/$name$.");
  const copies = matching.filter((path) => template(path) in embeddedTemplates);
  assert.ok(copies.length >= 18, `only ${copies.length} of the example's files are templates`);
  assert.deepEqual(
    matching.filter((path) => !(template(path) in embeddedTemplates)),
    [".gitignore", "knip.json"],
    "every other file the example keeps as generated is written from a template",
  );
});

Deno.test("every difference the example keeps names a file kit generates", () => {
  const paths = new Set(plannedFiles().map((write) => write.path));
  for (const path of Object.keys(differences)) {
    assert.ok(paths.has(path), `'${path}' is listed as a difference but kit does not write it`);
  }
});

Deno.test("the example's Redis job store (beside its database queue) is what kit init --queue redis writes", async () => {
  const config = JSON.parse(readFileSync(join(example, "kit.config.json"), "utf8")) as KitConfig;
  const path = "src/platform/jobs/redis-job-store.ts";
  const planned = projectFiles({ ...config, queue: "redis" }, [], ["deno"]).filter((write) =>
    write.path === path
  );
  assert.equal(planned.length, 1, `kit init --queue redis writes ${path}`);
  const [write] = await formatPlan(example, planned);
  assert.equal(readFileSync(join(example, path), "utf8"), write!.contents);
});
