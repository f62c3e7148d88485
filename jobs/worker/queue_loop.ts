import type { Clock, ErrorReporter } from "@kit/kernel";
import type { ClaimedJob } from "../store/job_store.ts";
import { type HeldJob, LocalQueue } from "./local_queue.ts";
import type { Slots } from "./slots.ts";

/** What a queue's loop asks of its worker. */
export interface QueueLoopHost {
  /** The queue the loop claims from. */
  readonly queue: string;
  /** The worker's clock. */
  readonly clock: Clock;
  /** Where a failed claim is reported. */
  readonly errorReporter: ErrorReporter;
  /** Aborted when the worker stops. */
  readonly stopping: AbortSignal;
  /** Claims up to `limit` due jobs of the queue. */
  claim(limit: number): Promise<ClaimedJob[]>;
  /** Runs a claimed job's attempt; `onRunEnd` frees its slot before the outcome is written. */
  attempt(job: ClaimedJob, heldSince: number, onRunEnd: () => void): Promise<unknown>;
  /** Asks the store whether a held job is still ours: when its lease started last, if it is. */
  stillHeld(job: ClaimedJob, heldSince: number): Promise<number | undefined>;
  /** Gives claimed jobs back uncounted (the stop awaits it). */
  giveBack(jobs: readonly ClaimedJob[]): Promise<void>;
  /** Keeps a run for the stop to await. */
  track(run: Promise<void>): void;
  /** The lease of a job (ms). */
  leaseOf(job: ClaimedJob): number;
  /** Whether heartbeats of this queue's attempts fail (the store is likely out of reach). */
  heartbeatsFailing(): boolean;
  /** Waits for a wake-up, the poll interval or the stop. */
  idle(): Promise<void>;
}

/**
 * Where a queue's loop is: `ready` to start held jobs and choose what is next, `paused` while
 * heartbeats fail, `busy` with no slot to claim for, `claiming` jobs, `idle` on an empty queue,
 * `stopped`.
 */
type LoopState =
  | { readonly name: "ready" }
  | { readonly name: "paused" }
  | { readonly name: "busy" }
  | { readonly name: "claiming"; readonly want: number }
  | { readonly name: "idle" }
  | { readonly name: "stopped" };

const ready: LoopState = { name: "ready" };
const paused: LoopState = { name: "paused" };
const busy: LoopState = { name: "busy" };
const idle: LoopState = { name: "idle" };
const stopped: LoopState = { name: "stopped" };

/**
 * One queue's claim loop, a state machine in the manner of River's producer: claims up to the
 * free slots (plus the prefetch, held in a local queue and started as slots free), runs the jobs,
 * waits for a wake-up when the queue is empty, and gives back what it holds when it stops.
 *
 * - ready → stopped, once the worker stops
 * - ready → paused → ready, while heartbeats fail: a freed slot, a wake-up or a poll ends it
 * - ready → busy → ready, with nothing to claim for: a freed slot, the stop or a hold's end
 * - ready → claiming → ready, or → idle → ready when the queue had nothing and a slot is free,
 *   or → stopped when the worker stopped meanwhile (the claimed jobs go back)
 */
export class QueueLoop {
  readonly #host: QueueLoopHost;
  readonly #slots: Slots;
  readonly #local = new LocalQueue();
  readonly #stopped: Promise<void>;

  /**
   * A loop over the host's queue with the given slots.
   *
   * @param host What the loop asks of its worker.
   * @param slots The queue's slots.
   */
  constructor(host: QueueLoopHost, slots: Slots) {
    this.#host = host;
    this.#slots = slots;
    const stopping = host.stopping;
    this.#stopped = new Promise<void>((resolve) => {
      if (stopping.aborted) resolve();
      else stopping.addEventListener("abort", () => resolve(), { once: true });
    });
  }

  /**
   * Runs until the worker stops, then gives back the jobs held unstarted.
   *
   * @returns Settles once the loop has stopped and its held jobs went back.
   */
  async run(): Promise<void> {
    let state = ready;
    try {
      while (state.name !== "stopped") {
        const next = this.#step(state);
        // `ready` chooses at once: no turn of the event loop between its choice and the claim.
        state = next instanceof Promise ? await next : next;
      }
    } finally {
      await this.#host.giveBack(this.#local.drain());
    }
  }

  #step(state: LoopState): LoopState | Promise<LoopState> {
    switch (state.name) {
      case "ready":
        return this.#ready();
      case "paused":
        return this.#paused();
      case "busy":
        return this.#busy();
      case "claiming":
        return this.#claiming(state.want);
      case "idle":
        return this.#idle();
      case "stopped":
        return state;
    }
  }

  #ready(): LoopState {
    if (this.#host.stopping.aborted) return stopped;
    this.#startHeld();
    // This queue's heartbeats fail: the store is likely out of reach for it; claim no more
    // until one succeeds or the attempts whose heartbeats fail end (a lost lease ends them).
    if (this.#host.heartbeatsFailing()) return paused;
    const want = this.#slots.want(this.#local.length);
    return want > 0 ? { name: "claiming", want } : busy;
  }

  async #paused(): Promise<LoopState> {
    await Promise.race([this.#slots.freed, this.#host.idle()]);
    return ready;
  }

  /** Waits for a freed slot, the stop or the end of the first hold (no poll timer). */
  async #busy(): Promise<LoopState> {
    const expiry = this.#local.nextExpiry();
    const events = [this.#slots.freed, this.#stopped];
    if (expiry === undefined) await Promise.race(events);
    else {
      const wait = expiry - this.#host.clock.now().getTime();
      if (wait > 0) {
        const timer = new AbortController();
        await Promise.race([...events, this.#host.clock.sleep(wait, timer.signal).catch(() => {})]);
        timer.abort();
      }
    }
    const expired = this.#local.expire(this.#host.clock.now().getTime());
    if (expired.length > 0) {
      this.#slots.holdExpired();
      this.#host.giveBack(expired);
    }
    return ready;
  }

  async #claiming(want: number): Promise<LoopState> {
    const claimedAt = this.#host.clock.now().getTime();
    let jobs: ClaimedJob[] | undefined;
    const claiming = this.#host.claim(want).then(
      (claimed) => void (jobs = claimed),
      (error) => {
        jobs = [];
        this.#host.errorReporter.report(error, {
          origin: "queue",
          details: { stage: "claim", queue: this.#host.queue },
        });
      },
    );
    // Held jobs start as slots free while the claim is in flight.
    while (jobs === undefined) {
      await Promise.race([claiming, this.#slots.freed]);
      this.#startHeld();
    }
    const claimed: ClaimedJob[] = jobs;
    if (this.#host.stopping.aborted) {
      await this.#host.giveBack(claimed);
      return stopped;
    }
    const holdUntil = (job: ClaimedJob) => claimedAt + Math.floor(this.#host.leaseOf(job) / 3);
    this.#local.push(claimed, claimedAt, holdUntil);
    this.#startHeld();
    this.#slots.claimed(claimed.length, want);
    return claimed.length === 0 && this.#slots.free > 0 ? idle : ready;
  }

  async #idle(): Promise<LoopState> {
    await this.#host.idle();
    return ready;
  }

  /** Starts held jobs in the free slots; gives back those whose hold ended. */
  #startHeld(): void {
    if (this.#host.stopping.aborted) return;
    const now = this.#host.clock.now().getTime();
    const expired: ClaimedJob[] = [];
    while (this.#slots.free > 0) {
      const held = this.#local.take(now, expired);
      if (held === undefined) break;
      // A job held a while may have been cancelled meanwhile: ask the store before running it.
      const confirm = now - held.since >= this.#host.leaseOf(held.job) / 10;
      // The slot is free once the run ends; the attempt, until its outcome is recorded.
      const free = this.#slots.occupy();
      this.#host.track(this.#run(held, confirm, free).catch(() => {}).finally(free));
    }
    this.#host.giveBack(expired);
  }

  /** Runs a held job in its slot, once the store confirmed it is still ours when asked to. */
  async #run(held: HeldJob, confirm: boolean, free: () => void): Promise<void> {
    let since = held.since;
    if (confirm) {
      const confirmed = await this.#host.stillHeld(held.job, since);
      // Cancelled or claimed again meanwhile: not ours to run.
      if (confirmed === undefined) return;
      if (this.#host.stopping.aborted) return await this.#host.giveBack([held.job]);
      since = confirmed;
    }
    await this.#host.attempt(held.job, since, free);
  }
}
