import type { Clock } from "@kit/kernel";
import type { Meter } from "@opentelemetry/api";
import type { JobStore } from "../store/job_store.ts";

/**
 * Publishes `kit.workers.live` (an observable gauge, attribute `queue`): the workers whose
 * heartbeat has not expired, by queue they consume, read from the store's registry at each
 * collection; 0 for each of `queues`, and each queue a live worker consumed since the process
 * started, without one now (so that an alert can fire on a queue with waiting jobs and no live
 * worker). Every process that publishes it reports the whole registry:
 * aggregate across processes with max, not sum. Nothing is published for a store without a
 * registry, or when the registry cannot be read (the failed collection is dropped).
 *
 * @param options The store, the clock, the meter and the queues always reported.
 */
export function observeLiveWorkers(options: {
  store: JobStore;
  clock: Clock;
  meter: Meter;
  queues: readonly string[];
}): void {
  const { store, clock, meter, queues } = options;
  if (store.workerList === undefined) return;
  const gauge = meter.createObservableGauge("kit.workers.live", {
    description: "Workers whose heartbeat has not expired, by queue they consume",
  });
  const known = new Set(queues);
  gauge.addCallback(async (result) => {
    let workers;
    try {
      workers = await store.workerList!({ now: clock.now() });
    } catch {
      return;
    }
    const live = new Map([...known].map((queue) => [queue, 0]));
    for (const worker of workers) {
      for (const queue of worker.queues) {
        known.add(queue);
        live.set(queue, (live.get(queue) ?? 0) + 1);
      }
    }
    for (const [queue, n] of live) result.observe(n, { queue });
  });
}
