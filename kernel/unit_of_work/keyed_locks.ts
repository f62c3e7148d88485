/**
 * Named locks held by units of work in one process: a unit that takes a name another holds waits
 * until that unit ends. A unit taking a name it already holds goes on at once.
 */
export class KeyedLocks {
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Takes `key` for `holder`; `held` collects the release functions the holder calls when it
   * ends. Answers when the lock is the holder's.
   */
  async acquire(key: string, held: Map<string, () => void>): Promise<void> {
    if (typeof key !== "string" || key.length === 0) {
      throw new TypeError(`A lock is named by a non-empty string, got ${JSON.stringify(key)}`);
    }
    if (held.has(key)) return;
    const before = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.#tails.set(key, tail);
    held.set(key, () => {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    await before;
  }
}
