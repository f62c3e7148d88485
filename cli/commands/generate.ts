import { existsSync } from "node:fs";
import {
  cachedCurrent,
  derivationInputs,
  derivationInputsAfter,
  isDerivedOutput,
  readDerivedCache,
  recordDerivation,
} from "../derive/derived_cache.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { type GeneratorKind, generatorKinds, namesFile } from "../generators/catalog.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";

/** What `kit generate` is told. */
export interface GenerateInput {
  readonly kind: string;
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
}

/**
 * Runs a generator in the project around `cwd`: plans every file, refuses (writing nothing) on
 * any bad input or, with `--local-only`, when the formatted plan changes a file outside
 * `src/contexts/<context>/` (every file, for `worker`, which names no context) or the kind is one
 * that always does; then writes all.
 */
export async function generate(cwd: string, input: GenerateInput): Promise<readonly string[]> {
  const kind = generatorKinds.find((k) => k.kind === input.kind);
  if (kind === undefined) {
    throw new CliError(
      `Unknown kind '${input.kind}': use one of ${generatorKinds.map((k) => k.kind).join(", ")}`,
    );
  }
  const localOnly = input.options["local-only"] === true;
  if (!kind.available) {
    throw new CliError(`kit generate ${kind.kind} is not available in this version of kit yet`);
  }
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  const [first, second] = input.positionals;
  let plan: FileWrite[];
  switch (kind.kind) {
    case "context": {
      if (first === undefined) {
        throw new CliError("Usage: kit generate context <name> [--kind core|supporting|generic]");
      }
      plan = await (await import("../generators/generate_context.ts")).planContext(
        root,
        config,
        first,
        String(input.options.kind ?? "supporting"),
      );
      break;
    }
    case "command":
    case "query": {
      if (first === undefined || second === undefined) {
        throw new CliError(
          `Usage: kit generate ${kind.kind} <context> <Name> [--permission <name>]`,
        );
      }
      const permission = input.options.permission;
      plan = await (await import("../generators/generate_message.ts")).planMessage(
        root,
        config,
        kind.kind,
        first,
        second,
        {
          ...(typeof permission === "string" ? { permission } : {}),
          ...(input.options.search === true ? { search: true } : {}),
          ...(typeof input.options.aggregate === "string"
            ? { aggregate: input.options.aggregate }
            : {}),
          ...(input.options.creates === true ? { creates: true } : {}),
          ...(typeof input.options.grant === "string" ? { grant: input.options.grant } : {}),
        },
      );
      break;
    }
    case "aggregate":
    case "port":
    case "background-job": {
      if (first === undefined || second === undefined) {
        throw new CliError(`Usage: kit generate ${kind.kind} <context> <Name>`);
      }
      const command = input.options.command;
      plan = kind.kind === "aggregate"
        ? await (await import("../generators/generate_simple.ts")).planAggregate(
          root,
          config,
          first,
          second,
        )
        : kind.kind === "port"
        ? await (await import("../generators/generate_simple.ts")).planPort(
          root,
          config,
          first,
          second,
        )
        : await (await import("../generators/generate_background_job.ts")).planBackgroundJob(
          root,
          config,
          first,
          second,
          typeof command === "string" ? command : undefined,
        );
      break;
    }
    case "repository": {
      if (first === undefined || second === undefined) {
        throw new CliError("Usage: kit generate repository <context> <Aggregate>");
      }
      plan = await (await import("../generators/generate_repository.ts")).planRepository(
        root,
        config,
        first,
        second,
      );
      break;
    }
    case "service": {
      if (first === undefined) throw new CliError("Usage: kit generate service <context>");
      plan = await (await import("../generators/generate_service.ts")).planService(
        root,
        config,
        first,
      );
      break;
    }
    case "policy": {
      if (first === undefined || second === undefined) {
        throw new CliError("Usage: kit generate policy <context> <Name> --permission <name>");
      }
      const permission = input.options.permission;
      plan = await (await import("../generators/generate_policy.ts")).planPolicy(
        root,
        config,
        first,
        second,
        typeof permission === "string" ? permission : undefined,
      );
      break;
    }
    case "gateway": {
      if (first === undefined || second === undefined) {
        throw new CliError("Usage: kit generate gateway <context> <upstream-context>");
      }
      plan = await (await import("../generators/generate_gateway.ts")).planGateway(
        root,
        config,
        first,
        second,
      );
      break;
    }
    case "adapter": {
      if (first === undefined || second === undefined) {
        throw new CliError(
          "Usage: kit generate adapter <context> <Port> [--kind external] [--decorators]",
        );
      }
      const adapterKind = input.options.kind;
      plan = await (await import("../generators/generate_adapter.ts")).planAdapter(
        root,
        config,
        first,
        second,
        {
          ...(typeof adapterKind === "string" ? { kind: adapterKind } : {}),
          decorators: input.options.decorators === true,
        },
      );
      break;
    }
    case "job": {
      if (first === undefined || second === undefined) {
        throw new CliError(
          "Usage: kit generate job <context> <Name> --every <interval> [--command <UseCase>]",
        );
      }
      const { every, command } = input.options;
      plan = await (await import("../generators/generate_scheduled_job.ts")).planScheduledJob(
        root,
        config,
        first,
        second,
        {
          ...(typeof every === "string" ? { every } : {}),
          ...(typeof command === "string" ? { command } : {}),
        },
      );
      break;
    }
    case "adr": {
      if (first === undefined || second === undefined) {
        throw new CliError("Usage: kit generate adr <context> <Name> [--deviation]");
      }
      plan = await (await import("../generators/generate_project_parts.ts")).planAdr(
        root,
        config,
        first,
        second,
        input.options.deviation === true,
      );
      break;
    }
    case "worker": {
      plan = (await import("../generators/generate_project_parts.ts")).planWorker(root, config);
      break;
    }
    case "route-group": {
      if (first === undefined || second === undefined) {
        throw new CliError(
          "Usage: kit generate route-group <context> <Name> [--role <role>] [--prefix </path>]",
        );
      }
      const { role, prefix } = input.options;
      plan = await (await import("../generators/generate_route_group.ts")).planRouteGroup(
        root,
        config,
        first,
        second,
        {
          ...(typeof role === "string" ? { role } : {}),
          ...(typeof prefix === "string" ? { prefix } : {}),
        },
      );
      break;
    }
    case "route": {
      if (first === undefined || second === undefined) {
        throw new CliError(
          "Usage: kit generate route <context> <Command|Query> [--group <RouteGroup>] [--path </path>] [--function]",
        );
      }
      const { group, path } = input.options;
      plan = await (await import("../generators/generate_route.ts")).planRoute(
        root,
        config,
        first,
        second,
        {
          ...(typeof group === "string" ? { group } : {}),
          ...(typeof path === "string" ? { path } : {}),
          ...(input.options.function === true ? { function: true } : {}),
        },
      );
      break;
    }
    case "error-code": {
      if (first === undefined || second === undefined) {
        throw new CliError(
          'Usage: kit generate error-code <context> <CODE> --status <4xx> [--description "..."]',
        );
      }
      const { status, description } = input.options;
      plan = await (await import("../generators/generate_error_code.ts")).planErrorCode(
        root,
        config,
        first,
        second,
        {
          ...(typeof status === "string" ? { status } : {}),
          ...(typeof description === "string" ? { description } : {}),
        },
      );
      break;
    }
    case "integration-event":
    case "integration-handler": {
      if (first === undefined || second === undefined) {
        throw new CliError(`Usage: kit generate ${kind.kind} <context> <Event>`);
      }
      plan = kind.kind === "integration-event"
        ? await (await import("../generators/generate_events.ts")).planIntegrationEvent(
          root,
          config,
          first,
          second,
        )
        : await (await import("../generators/generate_events.ts")).planIntegrationHandler(
          root,
          config,
          first,
          second,
        );
      break;
    }
    default:
      throw new CliError(`kit generate ${kind.kind} is not available in this version of kit yet`);
  }
  const formatted = await formatPlan(root, plan);
  if (localOnly) {
    // One rule for every kind: the files outside the context this plan really changes.
    const shared = await changedOutside(root, contextPrefix(kind.kind, first), formatted);
    if (shared.length > 0) refuseShared(kind.kind, inCatalogOrder(kind, shared));
    if (kind.writesShared) refuseShared(kind.kind, kind.sharedFiles);
  }
  // What the cache knew before the plan: a generator derives only the contexts it writes in, so
  // the others' derived files are recorded as current only when the cache found them so.
  const before = await derivationInputs(root);
  const previous = readDerivedCache(root);
  const contexts = config.contexts.map((c) => c.name);
  const wasCurrent = await cachedCurrent(root, before, contexts, previous);
  const written = await applyPlan(root, formatted);
  const derived = new Map(
    formatted.filter((w) => isDerivedOutput(w.path)).map((w) => [w.path, w.contents]),
  );
  const derivedAll = contexts.every((c) =>
    !existsSync(join(root, "src/contexts", c)) ||
    derived.has(`src/contexts/${c}/${c}.declarations.ts`)
  );
  if (derivedAll || wasCurrent) {
    // A `docs --check` next finds every derived file current from the cache, deriving nothing.
    await recordDerivation(
      root,
      await derivationInputsAfter(root, before, formatted.map((w) => w.path)),
      derived,
      derivedAll ? {} : previous!.outputs,
    );
  }
  return written;
}

/** Where a kind's own files are: `src/contexts/<context>/` (none for `worker`: every file is shared). */
function contextPrefix(kind: string, first: string | undefined): string | undefined {
  return kind === "worker" || first === undefined ? undefined : `src/contexts/${first}/`;
}

/** The files in the order `--help --json` lists them (any it does not name last). */
function inCatalogOrder(kind: GeneratorKind, files: readonly string[]): string[] {
  const rank = (path: string) => {
    const index = kind.sharedFiles.findIndex((pattern) => namesFile(pattern, path));
    return index === -1 ? kind.sharedFiles.length : index;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

function refuseShared(kind: string, files: readonly string[]): never {
  throw new CliError(
    `kit generate ${kind} would write ${files.length} shared file(s): ${files.join(", ")}; ` +
      `nothing was written (run it on the trunk, without --local-only)`,
  );
}

/** The planned files outside `prefix` (all, without one) whose contents the plan changes, in plan order. */
async function changedOutside(
  root: string,
  prefix: string | undefined,
  plan: readonly FileWrite[],
): Promise<string[]> {
  const changed: string[] = [];
  for (const write of plan) {
    if (prefix !== undefined && write.path.startsWith(prefix)) continue;
    const path = join(root, write.path);
    const current = existsSync(path) ? await readFile(path, "utf8") : undefined;
    if (write.remove ? current !== undefined : current !== write.contents) changed.push(write.path);
  }
  return changed;
}
