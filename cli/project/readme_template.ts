import type { KitConfig } from "./kit_config.ts";
import { bundles, type Runtime } from "./runtime_entry_templates.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** `README.md` of a generated project: how to run and deploy it on each of its runtimes. */
export function projectReadme(config: KitConfig, selected: readonly Runtime[]): string {
  const sections = [
    generatorTemplate("init/README.md", {
      name: config.name,
      redisJobs: config.queue === "redis"
        ? generatorTemplate("init/README.redis-jobs.part.md", {})
        : "",
    }),
    productionSection(config),
  ];
  if (selected.includes("deno")) {
    sections.push(generatorTemplate("init/README.deno.md", {}));
  }
  if (selected.includes("node")) {
    sections.push(generatorTemplate("init/README.node.md", { nodeBundle: bundles.node }));
  }
  if (selected.includes("workers")) {
    sections.push(
      generatorTemplate("init/README.workers.md", {
        workersBundle: bundles.workers,
        queueNote: config.queue === "redis"
          ? ", as it is"
          : ": `kit.config.json` says " + config.queue,
      }),
    );
  }
  return sections.join("\n\n") + "\n";
}

/**
 * The README's section on running in production: the health endpoints, the deadlines and their
 * settings, the logs and the metrics, each pointing to kit's operations page on it.
 */
function productionSection(config: KitConfig): string {
  return generatorTemplate("init/README.production.md", {
    redisCheck: config.queue === "redis"
      ? ", and the Redis job store (unreachable, not durable or lost its data)"
      : "",
    redisPage: config.queue === "redis" ? ", `docs/operations/redis-jobs.md`" : "",
  });
}
