/**
 * The deadline of a body read, on timers shared by the reads that start close together: one
 * timer per slot of a tenth of the timeout (at most 100 ms, at least 1 ms), not one per request
 * (on Deno a timer set and cleared costs about 3-6 µs, a tenth of a request). A read's deadline
 * is the end of its slot plus the timeout, so a read gets at least `ms` and at most `ms` plus a
 * slot (a tenth more).
 *
 * Where timers can be unreferenced (Deno, Node, Bun: long-lived servers), a slot's timer stays
 * until it fires, and holds the process open only while a read waits on it (referenced when its
 * first read enters, unreferenced when its last read leaves: about 0.2 µs); elsewhere (Workers, where a
 * promise must not be settled from another request's context) each read has its own timer,
 * cleared when the read ends. Internal to the pipeline.
 *
 * @module
 */

/** What `race` answers once the deadline has passed. */
export const timedOut: unique symbol = Symbol("timed out");

interface Slot {
  readonly key: number;
  /**
   * The first of the reads waiting on it (a list linked through them), told when it fires. Not a
   * shared promise raced against: every race would leave a reaction on it, keeping each read's
   * result until the slot fires. Not a `Set`: its add and delete per read rehash it (about 280
   * bytes a request); a read's node is linked and unlinked in place.
   */
  waiting: Waiter | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether its timer is unreferenced: then it is shared and left to fire. */
  shared: boolean;
  reads: number;
}

/** A read waiting on a slot: how to tell it the deadline passed, and its neighbours. */
interface Waiter {
  readonly expire: (expired: typeof timedOut) => void;
  previous: Waiter | undefined;
  next: Waiter | undefined;
}

/** Takes a read off its slot's list (nothing when the slot has fired and dropped it already). */
function unlink(slot: Slot, waiter: Waiter): void {
  if (waiter.previous !== undefined) waiter.previous.next = waiter.next;
  else if (slot.waiting === waiter) slot.waiting = waiter.next;
  if (waiter.next !== undefined) waiter.next.previous = waiter.previous;
  waiter.previous = undefined;
  waiter.next = undefined;
}

/** A timer the runtime can reference and unreference (Deno's, Node's, Bun's). */
interface Referable {
  ref(): void;
  unref(): void;
}

function referable(timer: ReturnType<typeof setTimeout>): timer is typeof timer & Referable {
  const { ref, unref } = timer as { ref?: unknown; unref?: unknown };
  return typeof ref === "function" && typeof unref === "function";
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
    if (slot === undefined || !slot.shared) {
      const opened: Slot = { key, waiting: undefined, timer: undefined, shared: false, reads: 0 };
      opened.timer = setTimeout(() => {
        opened.timer = undefined;
        if (this.#open.get(key) === opened) this.#open.delete(key);
        let waiter = opened.waiting;
        opened.waiting = undefined;
        while (waiter !== undefined) {
          const next = waiter.next;
          waiter.previous = undefined;
          waiter.next = undefined;
          waiter.expire(timedOut);
          waiter = next;
        }
      }, key * this.#grain - now + this.#ms);
      opened.shared = referable(opened.timer);
      if (opened.shared) this.#open.set(key, opened);
      slot = opened;
    } else if (slot.reads === 0 && slot.timer !== undefined) {
      (slot.timer as Referable).ref();
    }
    slot.reads++;
    return slot;
  }

  leave(slot: Slot): void {
    if (--slot.reads > 0 || slot.timer === undefined) return;
    if (slot.shared) {
      (slot.timer as Referable).unref();
      return;
    }
    clearTimeout(slot.timer);
    slot.timer = undefined;
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
    const slot = this.#slot;
    if (slot.timer === undefined) return Promise.resolve(timedOut);
    return new Promise<T | typeof timedOut>((resolve, reject) => {
      // The promise's own `resolve` waits on the slot (called with `timedOut`): no closure more.
      const waiter: Waiter = { expire: resolve, previous: undefined, next: slot.waiting };
      if (slot.waiting !== undefined) slot.waiting.previous = waiter;
      slot.waiting = waiter;
      read.then((value) => {
        unlink(slot, waiter);
        resolve(value);
      }, (error) => {
        unlink(slot, waiter);
        reject(error);
      });
    });
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
