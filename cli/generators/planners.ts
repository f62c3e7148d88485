/**
 * How each kind of `kit generate` plans its files: one entry per kind of the catalog, each
 * loading its generator when it runs (the others, and the parser, stay unloaded).
 *
 * @module
 */
import type { FileWrite } from "../files/file_plan.ts";
import type { KitConfig } from "../project/kit_config.ts";

/** What a planner is given: the project, the arguments after the kind, the options. */
export interface PlanInput {
  readonly root: string;
  readonly config: KitConfig;
  /** The positional arguments, as many as the kind's usage names (checked before). */
  readonly names: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
}

type Planner = (input: PlanInput) => Promise<FileWrite[]>;

/** An option's value when it is text (`--permission loan.open`), else none. */
function text(
  options: PlanInput["options"],
  name: string,
): Record<string, string> {
  const value = options[name];
  return typeof value === "string" ? { [name]: value } : {};
}

const message: (kind: "command" | "query") => Planner = (kind) =>
async (
  { root, config, names, options },
) =>
  options.update === true
    ? (await import("./message_update.ts")).planMessageUpdate(
      root,
      config,
      kind,
      names[0]!,
      names[1]!,
      ["permission", "aggregate", "grant", "enqueues", "publishes", "search", "creates"].filter(
        (option) => options[option] !== undefined && options[option] !== false,
      ),
    )
    : (await import("./generate_message.ts")).planMessage(
      root,
      config,
      kind,
      names[0]!,
      names[1]!,
      {
        ...text(options, "permission"),
        ...text(options, "aggregate"),
        ...text(options, "grant"),
        ...text(options, "enqueues"),
        ...text(options, "publishes"),
        ...(options.search === true ? { search: true } : {}),
        ...(options.creates === true ? { creates: true } : {}),
      },
    );

/** The planner of each kind, by the kind's name. */
export const planners: Readonly<Record<string, Planner>> = {
  adapter: async ({ root, config, names, options }) =>
    (await import("./generate_adapter.ts")).planAdapter(root, config, names[0]!, names[1]!, {
      ...text(options, "kind"),
      decorators: options.decorators === true,
    }),
  adr: async ({ root, config, names, options }) =>
    (await import("./generate_project_parts.ts")).planAdr(
      root,
      config,
      names[0]!,
      names[1]!,
      options.deviation === true,
    ),
  aggregate: async ({ root, config, names }) =>
    (await import("./generate_simple.ts")).planAggregate(root, config, names[0]!, names[1]!),
  "background-job": async ({ root, config, names, options }) =>
    (await import("./generate_background_job.ts")).planBackgroundJob(
      root,
      config,
      names[0]!,
      names[1]!,
      typeof options.command === "string" ? options.command : undefined,
    ),
  command: message("command"),
  context: async ({ root, config, names, options }) =>
    (await import("./generate_context.ts")).planContext(
      root,
      config,
      names[0]!,
      String(options.kind ?? "supporting"),
    ),
  "error-code": async ({ root, config, names, options }) =>
    (await import("./generate_error_code.ts")).planErrorCode(root, config, names[0]!, names[1]!, {
      ...text(options, "status"),
      ...text(options, "description"),
    }),
  gateway: async ({ root, config, names }) =>
    (await import("./generate_gateway.ts")).planGateway(root, config, names[0]!, names[1]!),
  "integration-event": async ({ root, config, names }) =>
    (await import("./generate_events.ts")).planIntegrationEvent(
      root,
      config,
      names[0]!,
      names[1]!,
    ),
  "integration-handler": async ({ root, config, names }) =>
    (await import("./generate_events.ts")).planIntegrationHandler(
      root,
      config,
      names[0]!,
      names[1]!,
    ),
  job: async ({ root, config, names, options }) =>
    (await import("./generate_scheduled_job.ts")).planScheduledJob(
      root,
      config,
      names[0]!,
      names[1]!,
      { ...text(options, "every"), ...text(options, "command") },
    ),
  policy: async ({ root, config, names, options }) =>
    (await import("./generate_policy.ts")).planPolicy(
      root,
      config,
      names[0]!,
      names[1]!,
      typeof options.permission === "string" ? options.permission : undefined,
    ),
  "process-manager": async ({ root, config, names, options }) =>
    (await import("./generate_process_manager.ts")).planProcessManager(
      root,
      config,
      names[0]!,
      names[1]!,
      {
        ...(typeof options["starts-on"] === "string" ? { startsOn: options["starts-on"] } : {}),
        ...(Array.isArray(options.handles) ? { handles: options.handles } : {}),
        ...(Array.isArray(options.deadline) ? { deadlines: options.deadline } : {}),
      },
    ),
  port: async ({ root, config, names }) =>
    (await import("./generate_simple.ts")).planPort(root, config, names[0]!, names[1]!),
  query: message("query"),
  rekey: async ({ root, config, names }) =>
    (await import("./generate_rekey.ts")).planRekey(root, config, names[0]!, names[1]!),
  repository: async ({ root, config, names }) =>
    (await import("./generate_repository.ts")).planRepository(root, config, names[0]!, names[1]!),
  route: async ({ root, config, names, options }) =>
    (await import("./generate_route.ts")).planRoute(root, config, names[0]!, names[1]!, {
      ...text(options, "group"),
      ...text(options, "path"),
      ...(options.function === true ? { function: true } : {}),
      ...(options.update === true ? { update: true } : {}),
    }),
  "route-group": async ({ root, config, names, options }) =>
    (await import("./generate_route_group.ts")).planRouteGroup(
      root,
      config,
      names[0]!,
      names[1]!,
      { ...text(options, "role"), ...text(options, "prefix") },
    ),
  service: async ({ root, config, names }) =>
    (await import("./generate_service.ts")).planService(root, config, names[0]!),
  worker: async ({ root, config }) =>
    (await import("./generate_project_parts.ts")).planWorker(root, config),
};
