import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { checkPascal, formatConfig, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { projectTemplate } from "../templates/project_template.ts";
import { checkContext } from "./generate_simple.ts";

/**
 * Plans an architecture decision record of a context,
 * `src/contexts/<context>/docs/adr/NNNN-<name>.md`, numbered after the context's last one: the
 * context owns its decisions (a worker records them in its scope, and they travel with the context
 * when it is extracted). With `deviation`, also records it in `kit.config.json` as a deviation of
 * the context from the toolkit's defaults: a shared file, so the conductor's.
 */
export async function planAdr(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  deviation: boolean,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "decision name");
  const folder = `src/contexts/${context}/docs/adr`;
  const dir = join(root, folder);
  const numbers = existsSync(dir)
    ? (await readdir(dir)).map((f) => /^(\d{4})-/.exec(f)?.[1]).filter((n): n is string =>
      n !== undefined
    ).map(Number)
    : [];
  const number = String(Math.max(0, ...numbers) + 1).padStart(4, "0");
  const file = `${folder}/${number}-${kebabOf(name)}.md`;
  const writes: FileWrite[] = [{
    path: file,
    create: true,
    contents: `# ${number}. ${name.replace(/([a-z0-9])([A-Z])/g, "$1 $2")}

Context: ${context}${deviation ? " (a deviation from the toolkit's defaults)" : ""}

## Status

Proposed

## Context

TODO(domain): the forces at play.

## Decision

TODO(domain): what we decided.

## Consequences

TODO(domain): what becomes easier, and what harder.
`,
  }];
  if (deviation) {
    const current = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8")) as
      & KitConfig
      & {
        deviations?: { context: string; adr: string }[];
      };
    const deviations = [...(current.deviations ?? []), { context, adr: file }]
      .sort((a, b) => `${a.context}/${a.adr}`.localeCompare(`${b.context}/${b.adr}`));
    writes.push({
      path: "kit.config.json",
      contents: formatConfig({ ...config, deviations } as KitConfig),
    });
  }
  return writes;
}

/**
 * Plans `apps/worker`: a process that runs the background jobs and scheduled jobs of every
 * context, with no HTTP, on the platform (its database, the job store of the config's queue, its
 * repositories and access policy); and `"worker": "separate"` in `kit.config.json`, so that the
 * API (`src/main.ts`, and `src/main.node.ts`) starts with jobs off and only enqueues. In a project
 * with a Node entry point (`kit init --runtime node`), the same worker for Node too,
 * `apps/worker/main.node.ts`: the API on Node then has a worker on Node.
 */
export function planWorker(root: string, config: KitConfig): FileWrite[] {
  if (existsSync(join(root, "apps/worker"))) throw new CliError("apps/worker exists already");
  const node: FileWrite[] = existsSync(join(root, "src/main.node.ts"))
    ? [{
      path: "apps/worker/main.node.ts",
      create: true,
      contents: projectTemplate("apps/worker/main.node.ts"),
    }]
    : [];
  return [
    { path: "kit.config.json", contents: formatConfig({ ...config, worker: "separate" }) },
    workerTask(root),
    ...node,
    {
      path: "apps/worker/main.ts",
      create: true,
      contents: projectTemplate("apps/worker/main.ts"),
    },
  ];
}

/** The `worker` task of a project with `apps/worker`: the worker alone, on Deno. */
const workerTaskCommand = "deno run -A apps/worker/main.ts";

/**
 * The project's `deno.json` with a `worker` task (`deno task worker`) after its other tasks; one
 * named so already is kept. Refused, naming the line to add, when the file is not plain JSON.
 */
function workerTask(root: string): FileWrite {
  const text = readFileSync(join(root, "deno.json"), "utf8");
  let project: { tasks?: Record<string, unknown> };
  try {
    project = JSON.parse(text);
  } catch {
    throw new CliError(
      `deno.json is not plain JSON (comments?): kit generate worker adds the task "worker": "${workerTaskCommand}" to it; make it plain JSON and run it again`,
    );
  }
  if (project.tasks?.worker !== undefined) return { path: "deno.json", contents: text };
  const tasks = { ...project.tasks, worker: workerTaskCommand };
  return { path: "deno.json", contents: JSON.stringify({ ...project, tasks }, null, 2) + "\n" };
}
