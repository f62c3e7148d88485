/**
 * The deadline of a body read, on timers shared by the reads that start close together: one
 * timer per slot of a tenth of the timeout (at most 100 ms, at least 1 ms), not one per
 * request. A read's deadline is the end of its slot plus the timeout, so a read gets at least
 * `ms` and at most `ms` plus a slot (a tenth more). A slot's timer is cleared as soon as the last
 * read in it ends, so no timer outlives the reads. Internal to the pipeline.
 *
 * @module
 */

/** What `race` answers once the deadline has passed. */
export const timedOut: unique symbol = Symbol("timed out");

interface Slot {
  readonly key: number;
  readonly expired: Promise<typeof timedOut>;
  timer: ReturnType<typeof setTimeout> | undefined;
  reads: number;
}

/** The open slots of one timeout, by the number of their slot. */
class Slots {
  readonly #ms: number;
  readonly #grain: number;
  readonly #open = new Map<number, Slot>();

  constructor(ms: number) {
    this.#ms = ms;
    this.#grain = Math.max(1, Math.min(100, Math.ceil(ms / 10)));
  }

  enter(): Slot {
    const now = performance.now();
    const key = Math.ceil(now / this.#grain);
    let slot = this.#open.get(key);
    if (slot === undefined) {
      let resolve!: (value: typeof timedOut) => void;
      const expired = new Promise<typeof timedOut>((settle) => (resolve = settle));
      const opened: Slot = { key, expired, timer: undefined, reads: 0 };
      opened.timer = setTimeout(() => {
        opened.timer = undefined;
        this.#open.delete(key);
        resolve(timedOut);
      }, key * this.#grain - now + this.#ms);
      this.#open.set(key, opened);
      slot = opened;
    }
    slot.reads++;
    return slot;
  }

  leave(slot: Slot): void {
    if (--slot.reads > 0 || slot.timer === undefined) return;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    this.#open.delete(slot.key);
  }
}

const slotsByTimeout = new Map<number, Slots>();

/** One read's deadline: `race` answers `timedOut` once it has passed; `clear` when done. */
export class BodyDeadline {
  readonly #ms: number;
  #slots: Slots | undefined;
  #slot: Slot | undefined;

  /** A deadline `ms` milliseconds (up to a tenth more) from the first `race` (never: Infinity). */
  constructor(ms: number) {
    this.#ms = ms;
  }

  /** The read, or `timedOut` if the deadline passes first. */
  race<T>(read: Promise<T>): Promise<T | typeof timedOut> {
    if (this.#ms === Infinity) return read;
    if (this.#slot === undefined) {
      let slots = slotsByTimeout.get(this.#ms);
      if (slots === undefined) slotsByTimeout.set(this.#ms, slots = new Slots(this.#ms));
      this.#slots = slots;
      this.#slot = slots.enter();
    }
    return Promise.race([read, this.#slot.expired]);
  }

  /** The reason a timed-out read is cancelled with. */
  reason(): Error {
    return new Error(`The body was not received within ${this.#ms} ms`);
  }

  /** Ends the deadline (its shared timer is cleared when no other read holds it). */
  clear(): void {
    if (this.#slot === undefined) return;
    this.#slots!.leave(this.#slot);
    this.#slot = undefined;
  }
}
