import {
  type ProcessInstance,
  processInstanceStatuses,
  type ProcessMessage,
  processPageMaxLimit,
} from "@kit/kernel/process";
import { defineRoute, type FunctionRoute, zodSchema } from "@kit/http";
import { z } from "zod";
import { jobsDashboardErrors } from "./errors.ts";
import {
  EndProcessInstance,
  ReadProcessCounts,
  ReadProcessInstance,
  ReadProcessInstances,
} from "./process_messages.ts";
import { operationOf } from "./operation_of.ts";

const count = z.number().int().min(0);
const name = z.string().min(1).max(200);
const status = z.enum(processInstanceStatuses);
const instanceJson = z.object({
  process: z.string(),
  tenantId: z.string().meta({ description: "The instance's tenant ('' for none)" }),
  key: z.string(),
  status,
  state: z.unknown().meta({ description: "The state its last transition answered (JSON)" }),
  version: z.number().int(),
  deadlines: z.array(z.object({
    name: z.string(),
    at: z.iso.datetime(),
    jobId: z.string().optional().meta({
      description: "The id of its background job: GET <prefix>/jobs/{jobId}",
    }),
  })).meta({ description: "The deadlines it waits for" }),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().optional(),
  endedBy: z.string().optional().meta({ description: "The operator who ended it" }),
});
const historyJson = z.array(z.object({
  messageId: z.string(),
  kind: z.enum(["event", "deadline", "operator"]),
  name: z.string().meta({
    description: "The event's type, the deadline's name, or the operator's id (an end)",
  }),
  handledAt: z.iso.datetime(),
  parked: z.boolean().meta({ description: "Waiting for the event that starts the instance" }),
}));
const countsBody = zodSchema(
  z.object({
    processes: z.array(z.object({ process: z.string(), active: count, completed: count })),
  }),
  { io: "output" },
);
const pageBody = zodSchema(
  z.object({ instances: z.array(instanceJson), next: z.string().optional() }),
  { io: "output" },
);
const instanceBody = zodSchema(
  z.object({ instance: instanceJson, history: historyJson }),
  { io: "output" },
);
const processParams = zodSchema(z.object({ process: name }));
const instanceParams = zodSchema(z.object({ process: name, key: z.string().min(1).max(400) }));
const tenantQuery = zodSchema(z.object({
  tenantId: z.string().max(200).optional().meta({
    description: "The instance's tenant; default the caller's ('' for none)",
  }),
}));
const pageQuery = zodSchema(z.object({
  status: status.optional(),
  after: z.string().min(1).max(1_000).optional(),
  limit: z.coerce.number().int().min(1).max(processPageMaxLimit).default(50),
}));

/** An instance as the dashboard's JSON answers it. */
function toInstanceJson(instance: ProcessInstance) {
  return {
    process: instance.process,
    tenantId: instance.tenantId,
    key: instance.key,
    status: instance.status,
    state: instance.state,
    version: instance.version,
    deadlines: Object.entries(instance.deadlines).map(([name, pending]) => ({
      name,
      at: pending.at,
      ...(pending.jobId === undefined ? {} : { jobId: pending.jobId }),
    })),
    startedAt: instance.startedAt.toISOString(),
    updatedAt: instance.updatedAt.toISOString(),
    ...(instance.completedAt === undefined
      ? {}
      : { completedAt: instance.completedAt.toISOString() }),
    ...(instance.endedBy === undefined ? {} : { endedBy: instance.endedBy }),
  };
}

const toHistoryJson = (message: ProcessMessage) => ({
  messageId: message.messageId,
  kind: message.kind,
  name: message.name,
  handledAt: message.handledAt.toISOString(),
  parked: message.parked,
});

/**
 * The process-manager routes of the dashboard (mounted when it is given the process store):
 * instances per process and status, a page of a process's instances, one instance with its
 * pending deadlines (their job ids) and history, and the operator's end.
 */
export function processRoutes(
  path: (piece: string) => string,
  common: { readonly security: readonly string[]; readonly tags: readonly string[] },
): readonly FunctionRoute[] {
  const operation = operationOf(common);
  return [
    defineRoute({
      ...operation(
        "GET",
        path("/processes"),
        "jobsDashboardProcesses",
        ReadProcessCounts,
        "Each process manager's instances by status",
      ),
      responses: { 200: { description: "The processes, by name", body: countsBody } },
    }, async ({ context }) => ({
      status: 200,
      body: {
        processes: await context.queries.execute(new ReadProcessCounts(context.execution.actor)),
      },
    })),
    defineRoute({
      ...operation(
        "GET",
        path("/processes/:process/instances"),
        "jobsDashboardProcessInstances",
        ReadProcessInstances,
        "A page of a process manager's instances, by tenant then key",
      ),
      request: { params: processParams, query: pageQuery },
      responses: {
        200: { description: "The page; `next` is the cursor of the next one", body: pageBody },
      },
      errors: [jobsDashboardErrors.INVALID_CURSOR],
    }, async ({ params, query, context }) => {
      const page = await context.queries.execute(
        new ReadProcessInstances(context.execution.actor, params.process, {
          limit: query.limit,
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(query.after === undefined ? {} : { after: query.after }),
        }),
      );
      return {
        status: 200,
        body: {
          instances: page.instances.map(toInstanceJson),
          ...(page.next === undefined ? {} : { next: page.next }),
        },
      };
    }),
    defineRoute({
      ...operation(
        "GET",
        path("/processes/:process/instances/:key"),
        "jobsDashboardProcessInstance",
        ReadProcessInstance,
        "One instance: state, version, pending deadlines with their job ids, history",
      ),
      request: { params: instanceParams, query: tenantQuery },
      responses: { 200: { description: "The instance and its history", body: instanceBody } },
      errors: [jobsDashboardErrors.PROCESS_INSTANCE_NOT_FOUND],
    }, async ({ params, query, context }) => {
      const view = await context.queries.execute(
        new ReadProcessInstance(context.execution.actor, {
          ...params,
          ...(query.tenantId === undefined ? {} : { tenantId: query.tenantId }),
        }),
      );
      return {
        status: 200,
        body: {
          instance: toInstanceJson(view.instance),
          history: view.history.map(toHistoryJson),
        },
      };
    }),
    defineRoute({
      ...operation(
        "POST",
        path("/processes/:process/instances/:key/end"),
        "jobsDashboardEndProcessInstance",
        EndProcessInstance,
        "Ends an active instance: archived as ended by the operator, its deadline jobs cancelled",
      ),
      request: { params: instanceParams, query: tenantQuery },
      responses: {
        200: {
          description: "The instance is ended",
          body: zodSchema(z.object({ key: z.string() }), { io: "output" }),
        },
      },
      errors: [jobsDashboardErrors.PROCESS_INSTANCE_NOT_FOUND],
    }, async ({ params, query, context }) => {
      await context.commands.execute(
        new EndProcessInstance(context.execution.actor, {
          ...params,
          ...(query.tenantId === undefined ? {} : { tenantId: query.tenantId }),
        }),
      );
      return { status: 200, body: { key: params.key } };
    }),
  ];
}
