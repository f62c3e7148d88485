/**
 * The settings of an {@linkcode EventRelay}, all optional.
 *
 * A relay runs deliveries in lanes: a lane takes a batch of one handler's deliveries and runs
 * them one after another, in one transaction when the outbox offers savepoints (each delivery in
 * a savepoint of its own, so that one failing rolls back alone), else in a transaction each.
 */
export interface EventRelaySettings {
  /** Deliveries of one handler a lane runs together (default 100). */
  readonly batchSize?: number;
  /**
   * Lanes running at once, every handler together (default 4). Each holds a database connection
   * while it runs: keep it below the pool's size.
   */
  readonly concurrency?: number;
  /**
   * Lanes of one handler running at once (default 2). With 1, and one relay process, a handler
   * gets its deliveries in the order of their events (as committed), except a failed one, retried
   * later; see {@linkcode EventRelay} on order.
   */
  readonly handlerConcurrency?: number;
  /**
   * How long a claimed delivery is kept from other relays (default 30 s): longer than a batch
   * takes, or another relay delivers it again.
   */
  readonly leaseMs?: number;
  /**
   * A lane starts no delivery of its batch after this long, and gives the rest back (default 1 s):
   * the bound on how long a batch's transaction holds the locks its handlers took.
   */
  readonly batchWindowMs?: number;
  /** Attempts of a delivery before it is parked as dead, reported, and left to an operator (default 25). */
  readonly maxAttempts?: number;
  /** The wait before attempt n + 1 after attempt n failed (default 1 s doubling, capped at 5 min). */
  readonly retryDelay?: (attempt: number) => number;
  /**
   * The wait between two polls of an idle outbox (default 1 s). With an outbox that notifies, a
   * safety net: a lost notification delays a delivery by one interval at most.
   */
  readonly pollIntervalMs?: number;
  /**
   * The wait before claiming again after the n-th claim in a row failed (a database outage):
   * default 1 s doubling, capped at 30 s.
   */
  readonly claimRetryDelay?: (failures: number) => number;
}

/** The settings with their defaults, checked. */
export interface ResolvedRelaySettings {
  readonly batchSize: number;
  readonly concurrency: number;
  readonly handlerConcurrency: number;
  readonly leaseMs: number;
  readonly batchWindowMs: number;
  readonly maxAttempts: number;
  readonly retryDelay: (attempt: number) => number;
  readonly pollIntervalMs: number;
  readonly claimRetryDelay: (failures: number) => number;
}

/** Applies the defaults; throws a RangeError naming a setting out of range. */
export function resolveRelaySettings(settings: EventRelaySettings = {}): ResolvedRelaySettings {
  const resolved: ResolvedRelaySettings = {
    batchSize: count("batchSize", settings.batchSize ?? 100),
    concurrency: count("concurrency", settings.concurrency ?? 4),
    handlerConcurrency: count("handlerConcurrency", settings.handlerConcurrency ?? 2),
    leaseMs: duration("leaseMs", settings.leaseMs ?? 30_000),
    batchWindowMs: duration("batchWindowMs", settings.batchWindowMs ?? 1_000),
    maxAttempts: count("maxAttempts", settings.maxAttempts ?? 25),
    retryDelay: settings.retryDelay ??
      ((attempt) => Math.min(1_000 * 2 ** (attempt - 1), 300_000)),
    pollIntervalMs: duration("pollIntervalMs", settings.pollIntervalMs ?? 1_000),
    claimRetryDelay: settings.claimRetryDelay ??
      ((failures) => Math.min(1_000 * 2 ** (failures - 1), 30_000)),
  };
  if (resolved.batchWindowMs >= resolved.leaseMs) {
    throw new RangeError(
      `The event relay's batchWindowMs (${resolved.batchWindowMs}) must be below its leaseMs (${resolved.leaseMs}): a batch would outlive its claim`,
    );
  }
  return resolved;
}

function count(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`The event relay's ${name} must be an integer from 1, got ${value}`);
  }
  return value;
}

function duration(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `The event relay's ${name} must be a number of milliseconds above 0, got ${value}`,
    );
  }
  return value;
}
