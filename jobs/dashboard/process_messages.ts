import { type Actor, AuthorizedCommand, AuthorizedQuery, Requires } from "@kit/kernel";
import type {
  ProcessInstance,
  ProcessInstanceCounts,
  ProcessInstancePage,
  ProcessInstanceStatus,
  ProcessMessage,
} from "@kit/kernel/process";
import { jobsPermissions } from "./permissions.ts";

/** Reads each process manager's instances by status (`jobs.read`; the tenants reached). */
@Requires(jobsPermissions["jobs.read"])
export class ReadProcessCounts extends AuthorizedQuery<readonly ProcessInstanceCounts[]> {
  /** The query of the actor. */
  constructor(actor: Actor) {
    super(actor);
  }
}

/** Reads a page of a process manager's instances, by tenant then key (`jobs.read`). */
@Requires(jobsPermissions["jobs.read"], {
  resource: (query: ReadProcessInstances) => ({ type: "process", id: query.process }),
})
export class ReadProcessInstances extends AuthorizedQuery<ProcessInstancePage> {
  /** The query of the actor for the process, narrowed as given. */
  constructor(
    actor: Actor,
    readonly process: string,
    readonly page: {
      readonly status?: ProcessInstanceStatus;
      readonly after?: string;
      readonly limit: number;
    },
  ) {
    super(actor);
  }
}

/** Where an instance is, as an operator names it: its tenant defaults to the work's. */
export interface ProcessInstanceTarget {
  /** The process's name. */
  readonly process: string;
  /** The correlation key. */
  readonly key: string;
  /** The instance's tenant ('' for none); default the work's tenant ('' for the system's). */
  readonly tenantId?: string;
}

/** An instance and its history, as the dashboard shows it. */
export interface ProcessInstanceView {
  /** The instance (its state, version, pending deadlines with their job ids). */
  readonly instance: ProcessInstance;
  /** Its history, oldest first: events handled or parked, deadlines fired, an operator's end. */
  readonly history: readonly ProcessMessage[];
}

/** Reads one instance with its history (`jobs.read`; 404 for another tenant's). */
@Requires(jobsPermissions["jobs.read"], {
  resource: (query: ReadProcessInstance) => ({
    type: "process-instance",
    id: `${query.target.process}/${query.target.key}`,
  }),
})
export class ReadProcessInstance extends AuthorizedQuery<ProcessInstanceView> {
  /** The query of the actor for the instance. */
  constructor(actor: Actor, readonly target: ProcessInstanceTarget) {
    super(actor);
  }
}

/**
 * Ends an active instance as the operator (`jobs.operate`): archived as ended by them, its
 * pending deadlines' jobs cancelled, the end in its history; 404 for another tenant's.
 */
@Requires(jobsPermissions["jobs.operate"], {
  resource: (command: EndProcessInstance) => ({
    type: "process-instance",
    id: `${command.target.process}/${command.target.key}`,
  }),
})
export class EndProcessInstance extends AuthorizedCommand<void> {
  /** The command of the actor for the instance. */
  constructor(actor: Actor, readonly target: ProcessInstanceTarget) {
    super(actor);
  }
}
