import { Clock, currentScope } from "@kit/kernel";
import { endProcessInstance } from "@kit/kernel/internal";
import {
  ProcessDeadlines,
  type ProcessInstanceCounts,
  type ProcessInstancePage,
  type ProcessStore,
} from "@kit/kernel/process";
import { jobsDashboardErrors } from "./errors.ts";
import type { DashboardHandler } from "./handlers.ts";
import {
  EndProcessInstance,
  type ProcessInstanceTarget,
  type ProcessInstanceView,
  ReadProcessCounts,
  ReadProcessInstance,
  ReadProcessInstances,
} from "./process_messages.ts";
import { dashboardReach } from "./reach.ts";

/** The instance's ref: the tenant named, or the work's ('' for work without one). */
function refOf(target: ProcessInstanceTarget, reach: { readonly tenantId?: string }) {
  return {
    process: target.process,
    key: target.key,
    tenantId: target.tenantId ?? reach.tenantId ?? "",
  };
}

const notFound = (target: ProcessInstanceTarget) =>
  jobsDashboardErrors.PROCESS_INSTANCE_NOT_FOUND.error(
    `No instance '${target.key}' of '${target.process}'`,
  );

/**
 * The handlers of the dashboard's process-manager messages on the application's process store:
 * reads with the reach of the work (another tenant's instance is not found), the end through
 * `endProcessInstance` in the command's unit of work (its deadline jobs cancelled with it).
 */
export function processHandlers(store: ProcessStore): readonly DashboardHandler[] {
  class ReadProcessCountsHandler {
    handle(_query: ReadProcessCounts): Promise<ProcessInstanceCounts[]> {
      return store.instanceCount({ reach: dashboardReach() });
    }
  }
  class ReadProcessInstancesHandler {
    async handle(query: ReadProcessInstances): Promise<ProcessInstancePage> {
      try {
        return await store.instanceList({
          process: query.process,
          reach: dashboardReach(),
          ...query.page,
        });
      } catch (error) {
        if (error instanceof TypeError) {
          throw jobsDashboardErrors.INVALID_CURSOR.error(error.message);
        }
        throw error;
      }
    }
  }
  class ReadProcessInstanceHandler {
    async handle(query: ReadProcessInstance): Promise<ProcessInstanceView> {
      const reach = dashboardReach();
      const ref = refOf(query.target, reach);
      const instance = await store.instanceRead({ ...ref, reach });
      if (instance === undefined) throw notFound(query.target);
      return { instance, history: await store.messageList(ref) };
    }
  }
  class EndProcessInstanceHandler {
    constructor(private readonly deadlines: ProcessDeadlines, private readonly clock: Clock) {}
    async handle(command: EndProcessInstance): Promise<void> {
      const unit = currentScope()?.unitOfWork;
      if (unit === undefined) throw new Error("EndProcessInstance runs in a unit of work");
      const reach = dashboardReach();
      const ended = await endProcessInstance({
        store,
        deadlines: this.deadlines,
        unit,
        ...refOf(command.target, reach),
        reach,
        by: command.actor.id,
        now: this.clock.now(),
      });
      if (ended === undefined) throw notFound(command.target);
    }
  }
  return [
    { message: ReadProcessCounts, handler: ReadProcessCountsHandler, deps: [] },
    { message: ReadProcessInstances, handler: ReadProcessInstancesHandler, deps: [] },
    { message: ReadProcessInstance, handler: ReadProcessInstanceHandler, deps: [] },
    {
      message: EndProcessInstance,
      handler: EndProcessInstanceHandler,
      deps: [ProcessDeadlines, Clock],
    },
  ] as unknown as readonly DashboardHandler[];
}
