/**
 * A promise and what settles it: `Promise.withResolvers()`, which Node 20 lacks (Node 22 has it),
 * and kit runs on Node 20.
 */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * The slots of one queue's loop: how many runs are under way, whether a claim takes jobs ahead
 * of the free slots (the prefetch), and a promise settled when a slot frees. The loop's only
 * mutable counters live here.
 */
export class Slots {
  readonly #concurrency: number;
  readonly #prefetch: number;
  #running = 0;
  // Off after a claim found fewer jobs than asked or a held job expired unstarted (no claim and
  // give back over and over while long runs fill the slots); on again when a slot frees.
  #prefetching = true;
  #freed = signal();

  /**
   * Slots for `concurrency` runs at once, claiming up to `prefetch` jobs ahead.
   *
   * @param concurrency Jobs run at once (from 1).
   * @param prefetch Jobs claimed ahead of free slots (0: off).
   */
  constructor(concurrency: number, prefetch: number) {
    this.#concurrency = concurrency;
    this.#prefetch = prefetch;
  }

  /** How many slots are free. */
  get free(): number {
    return this.#concurrency - this.#running;
  }

  /** Settles when a slot frees next. */
  get freed(): Promise<void> {
    return this.#freed.promise;
  }

  /**
   * Takes a slot for a run.
   *
   * @returns The function that frees it (once; calling it again does nothing).
   */
  occupy(): () => void {
    this.#running++;
    let occupied = true;
    return () => {
      if (!occupied) return;
      occupied = false;
      this.#running--;
      this.#prefetching = true;
      this.#freed.resolve();
      this.#freed = signal();
    };
  }

  /**
   * How many jobs the next claim asks for: the free slots, plus, while prefetching, a top-up of
   * the local queue once half of it started (so that claims take several jobs).
   *
   * @param held The jobs waiting in the local queue.
   * @returns The claim's limit; 0 or less when there is nothing to claim.
   */
  want(held: number): number {
    const topUp = this.#prefetching && held <= this.#prefetch / 2;
    return this.free + (topUp ? this.#prefetch - held : 0);
  }

  /**
   * Records a claim's result: a claim that found fewer jobs than asked stops the prefetch until
   * a slot frees.
   *
   * @param got The jobs claimed.
   * @param wanted The jobs asked for.
   */
  claimed(got: number, wanted: number): void {
    this.#prefetching = got >= wanted;
  }

  /** A held job expired unstarted: no claim ahead until a slot frees. */
  holdExpired(): void {
    this.#prefetching = false;
  }
}
