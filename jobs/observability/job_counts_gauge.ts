import type { Attributes, ObservableGauge, ObservableResult } from "@opentelemetry/api";
import { type Clock, consoleLogger, type Logger } from "@kit/kernel";
import { kitMeter, ThrottledRead } from "@kit/kernel/internal";
import type { MetricsOptions } from "@kit/kernel/types";
import type { JobStore } from "../store/job_store.ts";
import type { JobQueueCounts } from "../store/job_reads.ts";

/** The options of {@linkcode JobCountsGauge}. */
export interface JobCountsGaugeOptions extends MetricsOptions {
  /** The store whose jobs are counted (`jobCounts`, the dashboard's read). */
  readonly store: JobStore;
  /** The clock of the counts' age and of the read's deadline. */
  readonly clock: Clock;
  /** Collections within this long of a read answer its counts again, in ms (default 10 000). */
  readonly maxAgeMs?: number;
  /** How long the read may take, in ms (default 5 000): past it, the collection has no counts. */
  readonly timeoutMs?: number;
  /** Where a failed read is logged (`JOB_COUNTS_UNREAD`; default `consoleLogger()`). */
  readonly logger?: Logger;
}

/**
 * The observable gauge `kit.jobs.count`: the jobs of every tenant by `queue` and `state`
 * (`waiting`, `running`, `succeeded`, `dead`, `cancelled`), read from the store when the SDK
 * collects, at most once per `maxAgeMs` whoever collects; a queue whose jobs were all purged
 * counts 0. A read that fails or passes its deadline is logged (`JOB_COUNTS_UNREAD`) and observes
 * nothing (an SDK exporting cumulative data then repeats the last values).
 */
export class JobCountsGauge {
  readonly #gauge: ObservableGauge;
  readonly #counts: ThrottledRead<readonly JobQueueCounts[]>;
  readonly #logger: Logger;
  readonly #labels = new Map<string, Attributes>();
  /** The series observed at the last collection, answered 0 once their queue has no job left. */
  #observed = new Set<Attributes>();
  readonly #observe = (result: ObservableResult) => this.#collect(result);
  #observing = false;

  /** Creates the gauge; it observes nothing until {@linkcode JobCountsGauge.start}. */
  constructor(options: JobCountsGaugeOptions) {
    this.#gauge = kitMeter(options).createObservableGauge("kit.jobs.count", {
      description: "Jobs by queue and state",
      unit: "{job}",
    });
    this.#logger = options.logger ?? consoleLogger();
    const store = options.store;
    this.#counts = new ThrottledRead({
      read: () => store.jobCounts({ reach: {} }),
      clock: options.clock,
      maxAgeMs: options.maxAgeMs ?? 10_000,
      timeoutMs: options.timeoutMs ?? 5_000,
    });
  }

  /** Observes the counts at each collection. */
  start(): void {
    if (this.#observing) return;
    this.#observing = true;
    this.#gauge.addCallback(this.#observe);
  }

  /** Stops observing (the store may close after). */
  stop(): void {
    if (!this.#observing) return;
    this.#observing = false;
    this.#gauge.removeCallback(this.#observe);
  }

  async #collect(result: ObservableResult): Promise<void> {
    let counts: readonly JobQueueCounts[];
    try {
      counts = await this.#counts.value();
    } catch (error) {
      this.#logger.log({
        level: "warn",
        component: "jobs.metrics",
        code: "JOB_COUNTS_UNREAD",
        message: "kit.jobs.count has no value: the job store did not answer its counts",
        error,
      });
      return;
    }
    const observed = new Set<Attributes>();
    for (const queue of counts) {
      for (const [state, n] of Object.entries(queue)) {
        if (typeof n !== "number") continue;
        const labels = this.#labelsOf(queue.queue, state);
        result.observe(n, labels);
        observed.add(labels);
      }
    }
    for (const labels of this.#observed) if (!observed.has(labels)) result.observe(0, labels);
    this.#observed = observed;
  }

  #labelsOf(queue: string, state: string): Attributes {
    const key = `${queue}\u0000${state}`;
    let labels = this.#labels.get(key);
    if (labels === undefined) this.#labels.set(key, labels = Object.freeze({ queue, state }));
    return labels;
  }
}
