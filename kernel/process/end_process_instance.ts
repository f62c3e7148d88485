import type { ProcessDeadlines } from "./process_deadlines.ts";
import type { ProcessInstance, ProcessInstanceEndParams, ProcessStore } from "./process_store.ts";

/** What {@linkcode endProcessInstance} takes: the store's end, and where deadlines are jobs. */
export interface EndProcessInstanceParams extends ProcessInstanceEndParams {
  /** The store of the instance. */
  readonly store: ProcessStore;
  /** Where its deadlines' jobs are cancelled (the jobs plugin's `ProcessDeadlines`). */
  readonly deadlines: ProcessDeadlines;
}

/**
 * An operator's end of an active instance, in the unit of work: takes the instance's lock (as a
 * transition does), keeps it completed with `endedBy` and the end in its history, and cancels
 * its pending deadlines' jobs, all in the unit. Answers the instance as it was; undefined when
 * there is no active instance of that ref the reach includes (another tenant's is not found).
 */
export async function endProcessInstance(
  params: EndProcessInstanceParams,
): Promise<ProcessInstance | undefined> {
  const { store, deadlines, ...end } = params;
  await end.unit.lock(`kit:process:${JSON.stringify([end.process, end.tenantId, end.key])}`);
  const ended = await store.instanceEnd(end);
  if (ended === undefined) return undefined;
  for (const pending of Object.values(ended.deadlines)) {
    if (pending.jobId !== undefined) await deadlines.cancel(pending.jobId);
  }
  return ended;
}
