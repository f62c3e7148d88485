import type { ErrorReporter } from "../errors/error_reporter.ts";
import type { Logger } from "../logging/logger.ts";
import { tenantsReached } from "../tenancy/tenancy.ts";
import type { Clock } from "../time/clock.ts";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { currentScope } from "../unit_of_work/work_scope.ts";
import { type Lane, runLane } from "./delivery_lane.ts";
import type { EventHandler } from "./handles_event.ts";
import type { DeadDelivery, Outbox, OutboxDelivery } from "./outbox.ts";
import { relayStallCheck, type RelayStallOptions } from "./relay_stall.ts";
import type { HealthCheck } from "../health/readiness.ts";
import {
  type EventRelaySettings,
  type ResolvedRelaySettings,
  resolveRelaySettings,
} from "./relay_settings.ts";

export type { EventRelaySettings } from "./relay_settings.ts";
export type { RelayStallOptions } from "./relay_stall.ts";

/** Which dead deliveries {@linkcode EventRelay.retryDead} revives: an event's, a handler's, or both. */
export type DeadDeliverySelection =
  | { readonly eventId: string; readonly handler?: string }
  | { readonly eventId?: string; readonly handler: string };

/**
 * Delivers the outbox's events to their handlers, at least once: each delivery runs in a unit of
 * work of its own (nested in its lane's transaction when the outbox offers savepoints), with
 * origin `event`, the system actor, the event's tenant and correlation, and causation = the event
 * id; the handler's writes, its processed-event mark and the delivery's completion commit
 * together. A handler that throws is retried after `retryDelay`, its error reported; after
 * `maxAttempts` the delivery is parked as dead, reported with outcome `dead`, until
 * {@linkcode EventRelay.retryDead} revives it. A delivery that met a concurrent transaction (a
 * deadlock, 40P01, or a serialization failure, 40001) is due again at once and not reported (a
 * debug line `DELIVERY_CONFLICT`).
 *
 * Started, it claims deliveries in batches (one statement, `handlerConcurrency` lanes of
 * `batchSize` per handler, `concurrency` lanes in all), claims again as soon as a lane of a
 * handler with more due ends, and otherwise sleeps until the outbox notifies an append (when it
 * can, as PostgreSQL does with LISTEN/NOTIFY) or `pollIntervalMs` passes. A claim that fails (the
 * database unreachable) is reported and retried after `claimRetryDelay`; the relay never stops
 * by itself. It claims only the deliveries of the handlers it has.
 *
 * Order: the specification promises none, and the relay promises little. Nothing orders two
 * handlers' deliveries, nor one handler's when it has several lanes or several relays run, and a
 * failed delivery is retried after later events. With `handlerConcurrency: 1` and one relay
 * process, a handler receives its events in the order they occurred (then, for one instant, the
 * order they were appended), failures aside, as far as their transactions committed in that
 * order: an event whose transaction commits late comes after the ones claimed meanwhile. Most
 * consumers need no order (they derive from state, or compare a version the payload carries);
 * one that does must check it itself.
 */
export class EventRelay {
  readonly #outbox: Outbox;
  readonly #handlers: ReadonlyMap<string, () => EventHandler>;
  readonly #clock: Clock;
  readonly #reporter: ErrorReporter;
  readonly #settings: ResolvedRelaySettings;
  readonly #lane: Lane;
  readonly #runningBy = new Map<string, number>();
  readonly #lanes = new Set<Promise<number>>();
  /** Handlers whose last claim found nothing more due, until a notification or a poll. */
  readonly #idle = new Set<string>();
  #running = 0;
  #wakes = 0;
  #polledAt = 0;
  #rotation = 0;
  #stopping = false;
  #loop: Promise<void> | undefined;
  #controller: AbortController | undefined;
  #kick: (() => void) | undefined;
  #listening: "no" | "starting" | "yes" = "no";
  #listenAgainAt = 0;
  #unlisten: (() => Promise<void>) | undefined;
  /** When the started relay last claimed, or a lane of it ended (stall detection). */
  #passedAt: number | undefined;

  /** Builds a relay over an outbox and the handlers by name; throws on a setting out of range. */
  constructor(options: {
    outbox: Outbox;
    handlers: ReadonlyMap<string, () => EventHandler>;
    transactions: TransactionManager;
    clock: Clock;
    errorReporter: ErrorReporter;
    /** Where the relay's debug lines go (a delivery retried after a deadlock); default none. */
    logger?: Logger;
    settings?: EventRelaySettings;
  }) {
    this.#outbox = options.outbox;
    this.#handlers = options.handlers;
    this.#clock = options.clock;
    this.#reporter = options.errorReporter;
    this.#settings = resolveRelaySettings(options.settings);
    this.#lane = {
      outbox: options.outbox,
      handlers: options.handlers,
      transactions: options.transactions,
      clock: options.clock,
      reporter: options.errorReporter,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      settings: this.#settings,
      stopping: () => this.#stopping,
    };
  }

  /**
   * Whether the started relay is woken by the outbox's notifications; false while it only polls
   * (an outbox that cannot notify, `listen: false`, or listening not established yet or lost).
   */
  get listening(): boolean {
    return this.#listening === "yes";
  }

  /**
   * A readiness check that fails while the started relay is stalled: no claim and no lane
   * ended for `stalledAfter` (default 30 s) while deliveries are pending, logging `RELAY_STALLED`
   * once per stall and `RELAY_RECOVERED` when it ends (component `outbox.relay`).
   */
  stallCheck(options: RelayStallOptions = {}): HealthCheck {
    return relayStallCheck({
      lastPassAt: () => this.#loop === undefined ? undefined : this.#passedAt,
      pending: async () =>
        (await this.#outbox.backlog()).reduce((sum, handler) => sum + handler.pending, 0),
      clock: this.#clock,
    }, options);
  }

  /**
   * Claims what is due now for every handler, in one claim (`handlerConcurrency` batches of
   * `batchSize` each), delivers it, `concurrency` lanes at once, and answers how many deliveries
   * succeeded. Events published meanwhile wait for the next call. For tests and scripts; a
   * started relay does this by itself.
   */
  async deliverDue(): Promise<number> {
    const handlers = [...this.#handlers.keys()];
    if (handlers.length === 0) return 0;
    const lanesFor = new Map(handlers.map((h) => [h, this.#settings.handlerConcurrency]));
    const batches = this.#split(await this.#claim(lanesFor), lanesFor);
    let delivered = 0;
    const lane = async () => {
      for (let next = batches.shift(); next; next = batches.shift()) {
        const succeeded = await this.#startLane(next[0], next[1]);
        delivered += succeeded;
      }
    };
    await Promise.all(Array.from({ length: this.#settings.concurrency }, lane));
    return delivered;
  }

  /** Starts relaying in the background: listening when the outbox can, claiming, polling. */
  start(): void {
    if (this.#loop !== undefined || this.#handlers.size === 0) return;
    this.#stopping = false;
    this.#controller = new AbortController();
    this.#listen();
    this.#loop = this.#run(this.#controller.signal);
  }

  /**
   * Stops: claims no more, lets each lane finish the delivery under way (committing what its
   * batch delivered), gives back the claimed deliveries not started, and stops listening.
   */
  async stop(): Promise<void> {
    if (this.#loop === undefined) return;
    this.#stopping = true;
    this.#controller?.abort(new Error("The event relay is stopping"));
    await this.#loop;
    while (this.#lanes.size > 0) await Promise.allSettled([...this.#lanes]);
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    this.#listening = "no";
    this.#loop = undefined;
    this.#stopping = false;
    if (unlisten !== undefined) {
      await unlisten().catch((error) =>
        this.#reporter.report(error, { origin: "event", details: { stage: "unlisten" } })
      );
    }
  }

  /**
   * The dead deliveries the work under way may see (its tenants; every tenant's for the system
   * actor's work without a tenant, and outside any work, for operators' scripts).
   */
  async deadDeliveries(
    filter: { eventId?: string; handler?: string; limit?: number } = {},
  ): Promise<DeadDelivery[]> {
    const reach = reachedTenants();
    if (reach === null) return [];
    return await this.#outbox.deadDeliveries({ ...filter, ...(reach ? { tenants: reach } : {}) });
  }

  /**
   * Revives dead deliveries (operators): due now, attempts back to zero; answers how many. Names
   * an event, a handler or both, and reaches only what {@linkcode EventRelay.deadDeliveries}
   * shows the work under way.
   */
  async retryDead(selection: DeadDeliverySelection): Promise<number> {
    if (selection?.eventId === undefined && selection?.handler === undefined) {
      throw new TypeError(
        "retryDead() revives the dead deliveries of an eventId, a handler or both: name one",
      );
    }
    const reach = reachedTenants();
    if (reach === null) return 0;
    const revived = await this.#outbox.retryDead({
      ...(selection.eventId !== undefined ? { eventId: selection.eventId } : {}),
      ...(selection.handler !== undefined ? { handler: selection.handler } : {}),
      ...(reach ? { tenants: reach } : {}),
      now: this.#clock.now(),
    });
    if (revived > 0) this.#wake();
    return revived;
  }

  async #run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    this.#polledAt = this.#passedAt = this.#clock.now().getTime();
    while (!signal.aborted) {
      const now = this.#clock.now().getTime();
      if (now - this.#polledAt >= this.#settings.pollIntervalMs) {
        // A poll: every handler is claimed for again (retries come due without a notification).
        this.#polledAt = now;
        this.#idle.clear();
      }
      const candidates = [...this.#handlers.keys()].filter((h) =>
        !this.#idle.has(h) && this.#freeLanes(h) > 0
      );
      if (candidates.length > 0 && this.#running < this.#settings.concurrency) {
        try {
          await this.#claimRound(candidates);
          this.#passedAt = this.#clock.now().getTime();
          if (failures > 0 && this.#listening === "yes") this.#relisten();
          failures = 0;
          if (this.#listening === "no" && this.#clock.now().getTime() >= this.#listenAgainAt) {
            this.#listen();
          }
          continue;
        } catch (error) {
          failures++;
          this.#reporter.report(error, { origin: "event", details: { stage: "claim", failures } });
          try {
            await this.#clock.sleep(this.#settings.claimRetryDelay(failures), signal);
          } catch {
            return;
          }
          continue;
        }
      }
      await this.#wait(signal);
    }
  }

  /** Claims for free lanes of the candidates and starts the lanes. */
  async #claimRound(candidates: readonly string[]): Promise<void> {
    const lanesFor = this.#share(candidates);
    if (lanesFor.size === 0) return;
    const wakes = this.#wakes;
    const claimed = await this.#claim(lanesFor);
    for (const [handler, n] of lanesFor) {
      // Fewer than asked: nothing more is due for it until something is appended or a poll.
      const got = claimed.filter((d) => d.handler === handler).length;
      if (got < n * this.#settings.batchSize && this.#wakes === wakes) this.#idle.add(handler);
    }
    for (const [handler, batch] of this.#split(claimed, lanesFor)) this.#startLane(handler, batch);
  }

  /** Claims `batchSize` deliveries per lane of each handler, in one call. */
  #claim(lanesFor: ReadonlyMap<string, number>): Promise<OutboxDelivery[]> {
    const { batchSize, leaseMs } = this.#settings;
    return this.#outbox.claim({
      now: this.#clock.now(),
      limit: [...lanesFor.values()].reduce((a, b) => a + b, 0) * batchSize,
      leaseMs,
      handlers: Object.fromEntries([...lanesFor].map(([h, n]) => [h, n * batchSize])),
    });
  }

  /** Splits each handler's deliveries, in order, into as few batches as its lanes allow. */
  #split(
    claimed: readonly OutboxDelivery[],
    lanesFor: ReadonlyMap<string, number>,
  ): [string, OutboxDelivery[]][] {
    const batches: [string, OutboxDelivery[]][] = [];
    for (const [handler, lanes] of lanesFor) {
      const deliveries = claimed.filter((d) => d.handler === handler);
      const count = Math.min(lanes, Math.ceil(deliveries.length / this.#settings.batchSize));
      const size = Math.ceil(deliveries.length / Math.max(count, 1));
      for (let i = 0; i < count; i++) {
        batches.push([handler, deliveries.slice(i * size, (i + 1) * size)]);
      }
    }
    return batches;
  }

  /** Shares the free lanes out, one at a time in turn, among candidates with room. */
  #share(candidates: readonly string[]): Map<string, number> {
    const lanesFor = new Map<string, number>();
    let free = this.#settings.concurrency - this.#running;
    const start = this.#rotation++ % Math.max(candidates.length, 1);
    const order = [...candidates.slice(start), ...candidates.slice(0, start)];
    let progress = true;
    while (free > 0 && progress) {
      progress = false;
      for (const handler of order) {
        if (free === 0) break;
        const taken = lanesFor.get(handler) ?? 0;
        if (this.#freeLanes(handler) - taken <= 0) continue;
        lanesFor.set(handler, taken + 1);
        free--;
        progress = true;
      }
    }
    return lanesFor;
  }

  #freeLanes(handler: string): number {
    return this.#settings.handlerConcurrency - (this.#runningBy.get(handler) ?? 0);
  }

  #startLane(handler: string, batch: readonly OutboxDelivery[]): Promise<number> {
    this.#running++;
    this.#runningBy.set(handler, (this.#runningBy.get(handler) ?? 0) + 1);
    const lane = runLane(this.#lane, batch).catch((error) => {
      this.#reporter.report(error, { origin: "event", details: { stage: "lane", handler } });
      return 0;
    }).finally(() => {
      this.#passedAt = this.#clock.now().getTime();
      this.#running--;
      this.#runningBy.set(handler, this.#runningBy.get(handler)! - 1);
      this.#lanes.delete(lane);
      this.#kick?.();
    });
    this.#lanes.add(lane);
    return lane;
  }

  /** Sleeps until a lane ends, a notification, the next poll is due, or stop. */
  async #wait(signal: AbortSignal): Promise<void> {
    const woken = new AbortController();
    const onStop = () => woken.abort();
    signal.addEventListener("abort", onStop, { once: true });
    this.#kick = () => woken.abort();
    const untilPoll = this.#polledAt + this.#settings.pollIntervalMs - this.#clock.now().getTime();
    try {
      await this.#clock.sleep(untilPoll, woken.signal);
    } catch {
      // Woken before the poll.
    } finally {
      this.#kick = undefined;
      signal.removeEventListener("abort", onStop);
    }
  }

  #wake(): void {
    this.#wakes++;
    this.#idle.clear();
    this.#kick?.();
  }

  /**
   * Listens anew after an outage: the driver listens again by itself when its connection comes
   * back, but gives up if the database is still down then.
   */
  #relisten(): void {
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    this.#listening = "no";
    unlisten?.().catch(() => {});
    this.#listen();
  }

  #listen(): void {
    if (this.#outbox.listen === undefined || this.#handlers.size === 0) return;
    this.#listening = "starting";
    this.#outbox.listen(() => this.#wake()).then(
      async (unlisten) => {
        if (this.#stopping || this.#loop === undefined) return await unlisten();
        this.#listening = "yes";
        this.#unlisten = unlisten;
        this.#wake();
      },
      (error) => {
        // Polling goes on; listening is tried again a minute later, after a claim succeeds.
        this.#listening = "no";
        this.#listenAgainAt = this.#clock.now().getTime() + 60_000;
        throw error;
      },
    ).catch((error) => {
      // Stopping ends the connection of a LISTEN still waiting for it: no news.
      if (this.#stopping || this.#loop === undefined) return;
      this.#reporter.report(error, { origin: "event", details: { stage: "listen" } });
    });
  }
}

/** The tenants the work under way reaches: undefined for all, null for none. */
function reachedTenants(): readonly string[] | undefined | null {
  const execution = currentScope()?.execution;
  if (execution === undefined) return undefined;
  const reach = tenantsReached(execution);
  if (reach.all) return undefined;
  return reach.tenants.length === 0 ? null : reach.tenants;
}
