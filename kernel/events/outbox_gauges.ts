import type {
  Attributes,
  BatchObservableCallback,
  Meter,
  ObservableGauge,
} from "@opentelemetry/api";
import { consoleLogger, type Logger } from "../logging/logger.ts";
import { kitMeter, type MetricsOptions } from "../metrics/kit_meter.ts";
import { ThrottledRead } from "../metrics/throttled_read.ts";
import type { Clock } from "../time/clock.ts";
import type { Outbox, OutboxHandlerBacklog } from "./outbox.ts";

/** Where the outbox gauges go, and how often the backlog is read. */
export interface OutboxGaugesSettings extends MetricsOptions {
  /** Collections within this long of a read answer it again, in ms (default 10 000). */
  readonly maxAgeMs?: number;
  /** How long the read may take, in ms (default 5 000): past it, the collection has no value. */
  readonly timeoutMs?: number;
  /** Where a failed read is logged (`OUTBOX_BACKLOG_UNREAD`; default `consoleLogger()`). */
  readonly logger?: Logger;
}

/** The options of {@linkcode OutboxGauges}. */
export interface OutboxGaugesOptions extends OutboxGaugesSettings {
  /** The outbox whose backlog is read (`Outbox.backlog`, every tenant's). */
  readonly outbox: Outbox;
  /**
   * The handlers subscribed: each is observed, 0 when it has nothing pending (so is a handler no
   * longer subscribed once it had deliveries pending).
   */
  readonly handlers: readonly string[];
  /** The clock of the lag, of the backlog's age and of the read's deadline. */
  readonly clock: Clock;
}

/**
 * The observable gauges `kit.outbox.backlog` (deliveries pending: due, due later after a failure,
 * or claimed now; dead ones are not) and `kit.outbox.lag` (seconds since the oldest pending
 * delivery's event was written, 0 when none is pending), by `handler`; read from the outbox when
 * the SDK collects, at most once per `maxAgeMs` whoever collects. A read that fails or passes its
 * deadline is logged (`OUTBOX_BACKLOG_UNREAD`) and observes nothing.
 */
export class OutboxGauges {
  readonly #meter: Meter;
  readonly #backlog: ObservableGauge;
  readonly #lag: ObservableGauge;
  readonly #read: ThrottledRead<readonly OutboxHandlerBacklog[]>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  /** By handler, its attributes: those subscribed, and those seen pending since. */
  readonly #labels: Map<string, Attributes>;
  readonly #observe: BatchObservableCallback = (result) => this.#collect(result);
  #observing = false;

  /** Creates the gauges; they observe nothing until {@linkcode OutboxGauges.start}. */
  constructor(options: OutboxGaugesOptions) {
    this.#meter = kitMeter(options);
    this.#backlog = this.#meter.createObservableGauge("kit.outbox.backlog", {
      description: "Outbox deliveries pending (not delivered, not dead)",
      unit: "{delivery}",
    });
    this.#lag = this.#meter.createObservableGauge("kit.outbox.lag", {
      description: "Age of the oldest pending outbox delivery",
      unit: "s",
    });
    this.#clock = options.clock;
    this.#logger = options.logger ?? consoleLogger();
    this.#labels = new Map(
      options.handlers.map((handler) => [handler, Object.freeze({ handler })]),
    );
    const outbox = options.outbox;
    this.#read = new ThrottledRead({
      read: () => outbox.backlog(),
      clock: options.clock,
      maxAgeMs: options.maxAgeMs ?? 10_000,
      timeoutMs: options.timeoutMs ?? 5_000,
    });
  }

  /** Observes the backlog at each collection. */
  start(): void {
    if (this.#observing) return;
    this.#observing = true;
    this.#meter.addBatchObservableCallback(this.#observe, [this.#backlog, this.#lag]);
  }

  /** Stops observing (the outbox may close after). */
  stop(): void {
    if (!this.#observing) return;
    this.#observing = false;
    this.#meter.removeBatchObservableCallback(this.#observe, [this.#backlog, this.#lag]);
  }

  async #collect(result: Parameters<BatchObservableCallback>[0]): Promise<void> {
    let backlog: readonly OutboxHandlerBacklog[];
    try {
      backlog = await this.#read.value();
    } catch (error) {
      this.#logger.log({
        level: "warn",
        component: "events.metrics",
        code: "OUTBOX_BACKLOG_UNREAD",
        message: "kit.outbox.backlog and kit.outbox.lag have no value: the outbox did not answer",
        error,
      });
      return;
    }
    const now = this.#clock.now().getTime();
    const byHandler = new Map(backlog.map((entry) => [entry.handler, entry]));
    for (const { handler } of backlog) {
      if (!this.#labels.has(handler)) this.#labels.set(handler, Object.freeze({ handler }));
    }
    for (const [handler, labels] of this.#labels) {
      const entry = byHandler.get(handler);
      const oldest = entry?.oldestPendingAt?.getTime();
      result.observe(this.#backlog, entry?.pending ?? 0, labels);
      result.observe(
        this.#lag,
        oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000,
        labels,
      );
    }
  }
}
