import type { ClaimedJob } from "../store/job_store.ts";

/** A job in the local queue. */
export interface HeldJob {
  /** The claimed job. */
  readonly job: ClaimedJob;
  /** When it was claimed (ms since the epoch). */
  readonly since: number;
  /** When it must be given back if it has not started (ms since the epoch). */
  readonly until: number;
}

/**
 * The jobs a worker claimed ahead of its free slots, in claim order (earliest due first), each
 * held for a bounded time: a job not started by then is handed out as expired, to be given back
 * uncounted, so that it is never run once its lease may have ended.
 */
export class LocalQueue {
  #held: HeldJob[] = [];

  /** How many jobs wait. */
  get length(): number {
    return this.#held.length;
  }

  /** Adds jobs claimed at `since`, each held until `until(job)`. */
  push(jobs: readonly ClaimedJob[], since: number, until: (job: ClaimedJob) => number): void {
    for (const job of jobs) this.#held.push({ job, since, until: until(job) });
  }

  /** The next job still held at `now`; the expired ones before it go to `expired`. */
  take(now: number, expired: ClaimedJob[]): HeldJob | undefined {
    for (let next = this.#held.shift(); next !== undefined; next = this.#held.shift()) {
      if (now < next.until) return next;
      expired.push(next.job);
    }
    return undefined;
  }

  /** Removes and answers the jobs whose hold ended at `now`. */
  expire(now: number): ClaimedJob[] {
    const expired = this.#held.filter((held) => now >= held.until).map((held) => held.job);
    if (expired.length > 0) this.#held = this.#held.filter((held) => now < held.until);
    return expired;
  }

  /** When the first hold ends, if any job waits. */
  nextExpiry(): number | undefined {
    let first: number | undefined;
    for (const held of this.#held) {
      if (first === undefined || held.until < first) first = held.until;
    }
    return first;
  }

  /** Removes and answers every waiting job. */
  drain(): ClaimedJob[] {
    const jobs = this.#held.map((held) => held.job);
    this.#held = [];
    return jobs;
  }
}
