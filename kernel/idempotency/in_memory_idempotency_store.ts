import type {
  IdempotencyClaim,
  IdempotencyKeyParams,
  IdempotencyStore,
  KeptAnswer,
} from "./idempotency_store.ts";

interface Kept {
  readonly fingerprint: string;
  readonly answer: KeptAnswer;
  readonly at: Date;
}

/**
 * Idempotency keys in process memory: a claim holds the key until its unit of work ends; the
 * answer is kept once the unit commits (never on rollback). Seen by no other process, and lost
 * at restart: for tests and single-process development.
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly #kept = new Map<string, Kept>();
  readonly #held = new Set<string>();

  /** Claims the key, or answers what is kept or held. */
  claim(params: IdempotencyKeyParams & { expiresBefore: Date }): Promise<IdempotencyClaim> {
    const id = keyOf(params);
    if (this.#held.has(id)) return Promise.resolve({ outcome: "in-flight" });
    const kept = this.#kept.get(id);
    if (kept !== undefined && kept.at >= params.expiresBefore) {
      return Promise.resolve(
        kept.fingerprint === params.fingerprint
          ? { outcome: "replay", answer: kept.answer }
          : { outcome: "mismatch" },
      );
    }
    this.#held.add(id);
    return Promise.resolve({ outcome: "new" });
  }

  /** Keeps the answer once the unit commits. */
  keep(params: IdempotencyKeyParams & { answer: KeptAnswer }): Promise<void> {
    const id = keyOf(params);
    const kept: Kept = { fingerprint: params.fingerprint, answer: params.answer, at: params.now };
    params.unit.whenCommitted(() => void this.#kept.set(id, kept));
    return Promise.resolve();
  }

  /** Lets go of the claim. */
  release(params: { scope: string; key: string }): void {
    this.#held.delete(keyOf(params));
  }

  /** Deletes the answers kept before the instant. */
  purgeExpired(before: Date): Promise<number> {
    let n = 0;
    for (const [id, kept] of this.#kept) {
      if (kept.at < before) {
        this.#kept.delete(id);
        n++;
      }
    }
    return Promise.resolve(n);
  }
}

function keyOf(params: { scope: string; key: string }): string {
  return `${params.scope}\u0000${params.key}`;
}
