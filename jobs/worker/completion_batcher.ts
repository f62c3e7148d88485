import type { JobStore } from "../store/job_store.ts";

interface Pending {
  readonly id: string;
  readonly leaseToken: string;
  readonly resolve: (held: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Completes attempts in batches, as a group commit: completions arriving while a batch is being
 * written wait for it and go together in the next one, so a busy worker writes once per batch and
 * an idle one adds no delay.
 */
export class CompletionBatcher {
  readonly #store: JobStore;
  readonly #now: () => Date;
  #pending: Pending[] = [];
  #flushing = false;

  /** Batches completions on this store. */
  constructor(store: JobStore, now: () => Date) {
    this.#store = store;
    this.#now = now;
  }

  /** Completes the attempt's job; answers whether the attempt still held it. */
  complete(id: string, leaseToken: string): Promise<boolean> {
    if (this.#store.jobCompleteMany === undefined) {
      return this.#store.jobComplete({ id, leaseToken, now: this.#now() });
    }
    return new Promise<boolean>((resolve, reject) => {
      this.#pending.push({ id, leaseToken, resolve, reject });
      if (!this.#flushing) {
        this.#flushing = true;
        queueMicrotask(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        const held = await this.#store.jobCompleteMany!({
          jobs: batch.map(({ id, leaseToken }) => ({ id, leaseToken })),
          now: this.#now(),
        });
        batch.forEach((pending, i) => pending.resolve(held[i] === true));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.#flushing = false;
  }
}
