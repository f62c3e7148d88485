/**
 * The dashboard's tests' process instances, seeded in an in-memory process store.
 *
 * @module
 */
import { InMemoryTransactions } from "@kit/kernel";
import { InMemoryProcessStore, type ProcessInstance } from "@kit/kernel/process";
import { dashboardApp, job, t0 } from "./dashboard_app.ts";
import type { InMemoryJobStore } from "../mod.ts";

/** The process of the seeded instances. */
export const process = "appointments.confirmation";

/**
 * The dashboard over a process store holding `a1` (active, two deadlines with waiting jobs) and
 * `a2` (completed) of t1, and `a1` (active) of t2.
 */
// deno-lint-ignore explicit-module-boundary-types
export async function seeded() {
  const processes = new InMemoryProcessStore();
  const app = dashboardApp({ processes });
  const store: InMemoryJobStore = app.store;
  const transactions = new InMemoryTransactions();
  const jobIds: string[] = [];
  const seed = async (tenantId: string, key: string, status: "active" | "completed") => {
    const deadlines: Record<string, ProcessInstance["deadlines"][string]> = {};
    if (status === "active") {
      for (const name of ["remind", "release"]) {
        const deadlineJob = job({ tenantId, name: `${process}-deadline`, queue: "appointments" });
        await store.jobInsert({ job: deadlineJob });
        if (tenantId === "t1") jobIds.push(deadlineJob.id);
        deadlines[name] = {
          token: `${key}-${name}`,
          at: "2026-05-03T08:00:00.000Z",
          jobId: deadlineJob.id,
          payload: null,
        };
      }
    }
    await transactions.run(async (unit) => {
      await processes.instanceSave({
        unit,
        instance: {
          process,
          tenantId,
          key,
          status,
          state: { status: "booked" },
          version: 0,
          deadlines,
          startedAt: t0,
          updatedAt: t0,
          ...(status === "completed" ? { completedAt: t0 } : {}),
        },
      });
      await processes.messageMark({
        unit,
        process,
        tenantId,
        key,
        messageId: `${tenantId}-${key}-booked`,
        kind: "event",
        name: "appointments.appointment.booked",
        now: t0,
      });
    });
  };
  await seed("t1", "a1", "active");
  await seed("t1", "a2", "completed");
  await seed("t2", "a1", "active");
  return { ...app, processes, jobIds };
}
