import type { HealthCheck } from "../health/readiness.ts";
import { consoleLogger, type Logger } from "../logging/logger.ts";
import type { Clock } from "../time/clock.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";

/** How a relay's readiness check tells a stall (see `EventRelay.stallCheck`). */
export interface RelayStallOptions {
  /**
   * A started relay whose last pass (a claim, or a lane of deliveries ending) is older than this
   * while deliveries are pending is stalled (default `"30s"`; the relay claims at least every
   * `pollIntervalMs`, 1 s by default).
   */
  readonly stalledAfter?: Duration;
  /** Where the line of a stall (`RELAY_STALLED`) and of its end go (default: the console). */
  readonly logger?: Logger;
}

/** What the check reads of the relay. */
export interface RelayProgress {
  /** When the started relay last made progress (ms since the epoch); undefined when stopped. */
  lastPassAt(): number | undefined;
  /** How many deliveries are pending. */
  pending(): Promise<number>;
  /** The relay's clock. */
  readonly clock: Clock;
}

/**
 * The readiness check of an outbox relay: fails while the relay is stalled (its last pass older
 * than `stalledAfter` while deliveries are pending), logging one line when a stall is first seen
 * (component `outbox.relay`, code `RELAY_STALLED`) and one when it ends (`RELAY_RECOVERED`).
 *
 * @example
 * ```ts ignore
 * const check = relayStallCheck({ lastPassAt, pending, clock }, { stalledAfter: "30s" });
 * ```
 */
export function relayStallCheck(
  progress: RelayProgress,
  options: RelayStallOptions = {},
): HealthCheck {
  const stalledAfterMs = toMilliseconds(options.stalledAfter ?? "30s");
  const logger = options.logger ?? consoleLogger();
  let stalledSince: number | undefined;
  return async function outboxRelay(): Promise<void> {
    const passedAt = progress.lastPassAt();
    const now = progress.clock.now().getTime();
    const late = passedAt !== undefined && now - passedAt > stalledAfterMs;
    const pending = late ? await progress.pending() : 0;
    const stalled = late && pending > 0;
    if (stalled && stalledSince === undefined) {
      stalledSince = now;
      logger.log({
        level: "error",
        component: "outbox.relay",
        code: "RELAY_STALLED",
        message: `the outbox relay has made no progress for ${
          Math.round((now - passedAt!) / 1000)
        } s with ${pending} deliveries pending`,
        details: { pending, sinceMs: now - passedAt! },
      });
    } else if (!stalled && stalledSince !== undefined) {
      logger.log({
        level: "info",
        component: "outbox.relay",
        code: "RELAY_RECOVERED",
        message: `the outbox relay progresses again after a stall of ${
          Math.round((now - stalledSince) / 1000)
        } s`,
      });
      stalledSince = undefined;
    }
    if (stalled) throw new Error("the outbox relay is stalled");
  };
}
