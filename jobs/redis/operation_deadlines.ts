import { isUnreachable, RedisUnavailableError } from "./redis_unavailable.ts";

interface Pending {
  /** When it fails, on `performance.now()`. */
  readonly at: number;
  readonly operation: string;
  readonly reject: (error: unknown) => void;
  prev: Pending | undefined;
  next: Pending | undefined;
  done: boolean;
}

/**
 * The deadline of every operation of one store, all of one length, on one timer: what
 * `withinDeadline` does with a timer per operation. The operations in flight are a list in the
 * order they began, which is the order of their deadlines (one length, a monotonic clock); the
 * timer is armed for the first and, when it fires, fails those whose deadline passed and arms for
 * the next. An operation that ends leaves the list at once; the timer is cleared when the list is
 * empty (none is left behind the store's last operation). So a busy store, whose operations
 * overlap, arms a timer about once per `timeoutMs`, not once per operation.
 */
export class OperationDeadlines {
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #first: Pending | undefined;
  #last: Pending | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Deadlines of `timeoutMs` each.
   *
   * @param timeoutMs How long each operation may take (ms).
   * @param now The monotonic clock the deadlines are read on (default `performance.now`; tests
   *   move it to order deadlines; the timer is the real one).
   */
  constructor(timeoutMs: number, now: () => number = () => performance.now()) {
    this.#timeoutMs = timeoutMs;
    this.#now = now;
  }

  /**
   * Runs the operation within the deadline: a time-out, or an error saying Redis is unreachable,
   * becomes a `RedisUnavailableError` naming the operation; other errors pass through.
   */
  run<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending = this.#add(operation, reject);
      let running: Promise<T>;
      try {
        running = run();
      } catch (error) {
        running = Promise.reject(error);
      }
      running.then(
        (value) => {
          this.#remove(pending);
          resolve(value);
        },
        (error) => {
          this.#remove(pending);
          reject(
            error instanceof RedisUnavailableError || !isUnreachable(error) ? error : (
              new RedisUnavailableError(
                `Redis is unreachable (${operation}): nothing was acknowledged, retry later`,
                { cause: error },
              )
            ),
          );
        },
      );
    });
  }

  /** How many operations are in flight. */
  get size(): number {
    let n = 0;
    for (let p = this.#first; p !== undefined; p = p.next) n++;
    return n;
  }

  #add(operation: string, reject: (error: unknown) => void): Pending {
    const pending: Pending = {
      at: this.#now() + this.#timeoutMs,
      operation,
      reject,
      prev: this.#last,
      next: undefined,
      done: false,
    };
    if (this.#last === undefined) this.#first = pending;
    else this.#last.next = pending;
    this.#last = pending;
    if (this.#timer === undefined) this.#arm(this.#timeoutMs);
    return pending;
  }

  #remove(pending: Pending): void {
    if (pending.done) return;
    pending.done = true;
    if (pending.prev === undefined) this.#first = pending.next;
    else pending.prev.next = pending.next;
    if (pending.next === undefined) this.#last = pending.prev;
    else pending.next.prev = pending.prev;
    pending.prev = pending.next = undefined;
    if (this.#first === undefined && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, ms));
  }

  #expire(): void {
    this.#timer = undefined;
    const now = this.#now();
    for (let first = this.#first; first !== undefined && first.at <= now; first = this.#first) {
      this.#remove(first);
      first.reject(
        new RedisUnavailableError(
          `Redis did not answer ${first.operation} within ${this.#timeoutMs} ms: nothing was acknowledged, retry later`,
        ),
      );
    }
    if (this.#first !== undefined && this.#timer === undefined) {
      this.#arm(Math.ceil(this.#first.at - now));
    }
  }
}
