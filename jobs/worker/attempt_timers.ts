import type { Clock } from "@kit/kernel";

/** A deadline scheduled on {@linkcode AttemptTimers}: fires once at `at`, unless cancelled. */
export interface AttemptTimer {
  /** When it fires, in ms since the epoch on the worker's clock. */
  readonly at: number;
}

interface Entry extends AttemptTimer {
  readonly seq: number;
  readonly fire: () => void;
  /** Its place in the heap; -1 once fired or cancelled. */
  index: number;
}

/**
 * The deadlines of a worker's attempts (heartbeats, lease watches, time-outs) on one timer of the
 * worker's clock instead of one per deadline: a min-heap of deadlines and a single `clock.sleep`
 * until the earliest. Scheduling and cancelling touch no timer unless the new deadline is the
 * earliest of all (a job that ends before its first heartbeat costs two heap operations, not two
 * timers, two abort controllers and their listeners). A cancelled earliest deadline leaves the
 * timer armed: it wakes once for nothing and arms for the next. Deadlines due together fire in
 * the order of their instants, then of their scheduling; the clock is injected, so the test clock
 * drives them as it drove the timers.
 */
export class AttemptTimers {
  readonly #clock: Clock;
  readonly #heap: Entry[] = [];
  #seq = 0;
  /** The instant the armed sleep ends (Infinity: none armed). */
  #armedAt = Infinity;
  #disarm: AbortController | undefined;

  /**
   * Deadlines on `clock`.
   *
   * @param clock The worker's clock.
   */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** How many deadlines wait. */
  get size(): number {
    return this.#heap.length;
  }

  /**
   * Calls `fire` once the clock reaches `at` (ms since the epoch), unless cancelled first.
   *
   * @returns The handle that {@linkcode AttemptTimers.cancel} takes.
   */
  schedule(at: number, fire: () => void): AttemptTimer {
    const entry: Entry = { at, seq: this.#seq++, fire, index: this.#heap.length };
    this.#heap.push(entry);
    this.#up(entry.index);
    if (at < this.#armedAt) this.#arm(at);
    return entry;
  }

  /** Forgets a deadline not yet fired (a fired or cancelled one: nothing happens). */
  cancel(timer: AttemptTimer): void {
    const entry = timer as Entry;
    const i = entry.index;
    if (i < 0 || this.#heap[i] !== entry) return;
    entry.index = -1;
    const last = this.#heap.pop()!;
    if (last === entry) return;
    this.#heap[i] = last;
    last.index = i;
    this.#down(i);
    this.#up(last.index);
  }

  /** Ends the armed sleep (the worker stopped); a later `schedule` arms it again. */
  close(): void {
    this.#disarm?.abort();
    this.#disarm = undefined;
    this.#armedAt = Infinity;
  }

  #arm(at: number): void {
    this.#disarm?.abort();
    const disarm = new AbortController();
    this.#disarm = disarm;
    this.#armedAt = at;
    this.#clock.sleep(at - this.#clock.now().getTime(), disarm.signal).then(
      () => {
        if (this.#disarm !== disarm) return;
        this.#disarm = undefined;
        this.#armedAt = Infinity;
        this.#fireDue();
      },
      () => {},
    );
  }

  #fireDue(): void {
    const now = this.#clock.now().getTime();
    const heap = this.#heap;
    while (heap.length > 0 && heap[0]!.at <= now) {
      const entry = heap[0]!;
      this.cancel(entry);
      try {
        entry.fire();
      } catch (error) {
        // A deadline's callback does not throw; one that did must not stop the others.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    if (heap.length > 0 && heap[0]!.at < this.#armedAt) this.#arm(heap[0]!.at);
  }

  #before(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #up(i: number): void {
    const heap = this.#heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      heap[i]!.index = i;
      i = parent;
    }
    heap[i] = entry;
    entry.index = i;
  }

  #down(i: number): void {
    const heap = this.#heap;
    const entry = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && this.#before(heap[right]!, heap[left]!) ? right : left;
      if (!this.#before(heap[child]!, entry)) break;
      heap[i] = heap[child]!;
      heap[i]!.index = i;
      i = child;
    }
    heap[i] = entry;
    entry.index = i;
  }
}
