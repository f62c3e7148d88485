/**
 * The callbacks a unit of work runs after its commit. Shared by every transaction manager.
 */
export class CommitCallbacks {
  #callbacks: (() => unknown)[] = [];

  /** Adds a callback. */
  add(callback: () => unknown): void {
    if (typeof callback !== "function") {
      throw new TypeError(`whenCommitted takes a function, got ${typeof callback}`);
    }
    this.#callbacks.push(callback);
  }

  /**
   * Runs every callback in order. A callback that fails does not stop the others: the commit is
   * done. The failures are thrown together afterwards as an AggregateError.
   */
  /** Whether no callback was added (then `runAll` has nothing to run). */
  get empty(): boolean {
    return this.#callbacks.length === 0;
  }

  async runAll(): Promise<void> {
    const errors: unknown[] = [];
    // Callbacks may add callbacks (a job enqueued from a commit callback).
    for (let i = 0; i < this.#callbacks.length; i++) {
      try {
        await this.#callbacks[i]!();
      } catch (error) {
        errors.push(error);
      }
    }
    this.#callbacks = [];
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Callbacks after commit failed");
  }
}
