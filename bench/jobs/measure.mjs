// The measurements of the jobs side-by-side benchmark, shared by every runner (kit on Deno, the
// peers on Node), so that each queue is measured by the same code: only the adapter differs.
//
// An adapter is:
//   reset(): Promise<void>                       drop the queue's schema / flush its Redis db, migrate
//   enqueue(n: number): Promise<void>            enqueue one job { n }, on its own (autocommit)
//   enqueueBatch(ns: number[]): Promise<void>    enqueue one job per n, in one call
//   startWorker(concurrency, onStart, begin): Promise<void>  run no-op jobs; onStart() as each one
//                                                starts; begin() once its pools and connections are
//                                                made, right before it asks for its first jobs
//   completed(): Promise<number>                 the jobs whose success the store has written (a
//                                                count read from the store, or counted as the
//                                                store's completion call returns)
//   stopWorker(): Promise<void>
//   close(): Promise<void>
// The producer (enqueue, enqueueBatch) and the worker use separate clients, as a web process and
// a worker process would: an enqueue never wakes the worker in-process.

/** The batch size of the batched enqueue row. */
export const BATCH = 100;

/**
 * Runs one measure on an adapter and answers its result.
 *
 * @param {object} adapter
 * @param {{ measure: string, jobs: number, concurrency: number, samples: number, maxSeconds: number }} params
 * @returns {Promise<Record<string, number>>}
 */
export async function runMeasure(adapter, params) {
  await adapter.reset();
  try {
    switch (params.measure) {
      case "enqueue":
        return await enqueueSingle(adapter, params.jobs);
      case "enqueue-batch":
        return await enqueueBatched(adapter, params.jobs);
      case "process":
        return await processJobs(adapter, params.jobs, params.concurrency, params.maxSeconds);
      case "latency":
        return await latency(adapter, params.samples, params.maxSeconds);
      default:
        throw new Error(`unknown measure '${params.measure}'`);
    }
  } finally {
    await bounded(adapter.close(), "close");
  }
}

// A peer whose graceful stop hangs (pg-boss 10 has, with thousands of jobs left waiting) must
// not hang the benchmark: its figure is taken before the stop.
async function bounded(promise, what, seconds = 10) {
  let timer;
  const late = new Promise((r) => (timer = setTimeout(() => r("late"), seconds * 1000)));
  const outcome = await Promise.race([promise.then(() => "done"), late]);
  clearTimeout(timer);
  if (outcome === "late") console.error(`${what} did not end within ${seconds} s: left behind`);
}

async function enqueueSingle(adapter, jobs) {
  for (let n = 0; n < 20; n++) await adapter.enqueue(n); // warm-up: connections, prepared statements
  const t = performance.now();
  for (let n = 0; n < jobs; n++) await adapter.enqueue(n);
  return { rate: jobs / ((performance.now() - t) / 1000) };
}

async function enqueueBatched(adapter, jobs) {
  await adapter.enqueueBatch(range(0, BATCH)); // warm-up
  const batches = Math.max(1, Math.round(jobs / BATCH));
  const t = performance.now();
  for (let b = 0; b < batches; b++) await adapter.enqueueBatch(range(b * BATCH, BATCH));
  return { rate: (batches * BATCH) / ((performance.now() - t) / 1000) };
}

// Enqueues the jobs first (batched, not timed), then starts the worker; the rate is taken from the
// worker's begin (its pools and connections made beforehand, so that no queue's start-up is
// counted, but its first claim is: a peer that fetches a large batch ahead would otherwise have
// its largest claim left out) to the LAST COMPLETION (the moment the store holds every job's
// success), so that no queue gains by finishing in the background (pg-boss does not await its
// completion statement; kit and graphile-worker batch theirs). After the last start, the harness
// asks the adapter's `completed()` every millisecond or so: the last completion is known to within
// one such call. Stops after `maxSeconds` (a poller at concurrency 1 would take minutes) and counts
// what completed by then. The result also gives the rate from the first job's start to the last
// completion (`fromFirstStart`), the clock of the rows before issue #33 but for their end.
async function processJobs(adapter, jobs, concurrency, maxSeconds) {
  for (let b = 0; b < jobs; b += BATCH) {
    await adapter.enqueueBatch(range(b, Math.min(BATCH, jobs - b)));
  }
  let started = 0;
  let begun = 0;
  let first = 0;
  let resolve;
  const allStarted = new Promise((r) => (resolve = r));
  await adapter.startWorker(concurrency, () => {
    if (started === 0) first = performance.now();
    if (++started === jobs) resolve();
  }, () => (begun = performance.now()));
  const deadline = performance.now() + maxSeconds * 1000;
  const result = await untilCompleted(adapter, jobs, allStarted, deadline);
  await bounded(adapter.stopWorker(), "stopWorker");
  if (started === 0) return { rate: 0, jobs: 0, started };
  if (begun === 0) throw new Error("the adapter never called begin()");
  return {
    rate: result.jobs / ((result.at - begun) / 1000),
    fromFirstStart: result.jobs / ((result.at - first) / 1000),
    jobs: result.jobs,
    started,
  };
}

/**
 * Waits for every job to start, then asks `completed()` until it answers `jobs`, or the deadline
 * passes: answers how many completed and when that was seen.
 *
 * @param {{ completed(): Promise<number> }} adapter
 * @param {number} jobs
 * @param {Promise<void>} allStarted
 * @param {number} deadline a `performance.now()` time
 * @returns {Promise<{ jobs: number, at: number }>}
 */
export async function untilCompleted(adapter, jobs, allStarted, deadline) {
  let timer;
  const late = new Promise((
    r,
  ) => (timer = setTimeout(r, Math.max(0, deadline - performance.now()))));
  await Promise.race([allStarted, late]);
  clearTimeout(timer);
  for (;;) {
    const done = await adapter.completed();
    const at = performance.now();
    if (done >= jobs || at >= deadline) return { jobs: done, at };
    await sleep(1);
  }
}

// On an idle queue (one worker, concurrency 1), enqueues one job at a time and waits for it to
// start; 10 ms of idleness between samples; the first 3 are a warm-up. Stops after `maxSeconds`
// even with fewer samples (pollers are slow here), and says how many it took.
async function latency(adapter, samples, maxSeconds) {
  let onStart = () => {};
  await adapter.startWorker(1, () => onStart(performance.now()), () => {});
  const times = [];
  const deadline = performance.now() + maxSeconds * 1000;
  for (let i = 0; i < samples + 3 && performance.now() < deadline; i++) {
    const ran = new Promise((r) => (onStart = r));
    await sleep(10);
    const before = performance.now();
    await adapter.enqueue(i);
    const at = await ran;
    if (i >= 3) times.push(at - before);
  }
  await bounded(adapter.stopWorker(), "stopWorker");
  times.sort((a, b) => a - b);
  const pct = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))];
  return { p50: pct(0.5), p99: pct(0.99), samples: times.length };
}

function range(from, length) {
  return Array.from({ length }, (_, i) => from + i);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Reads the runner's parameters from its arguments (`measure jobs concurrency samples maxSeconds`).
 *
 * @param {string[]} args
 */
export function parseArgs(args) {
  const [measure = "", jobs, concurrency, samples, maxSeconds] = args;
  return {
    measure,
    jobs: Number(jobs ?? 2000),
    concurrency: Number(concurrency ?? 1),
    samples: Number(samples ?? 50),
    maxSeconds: Number(maxSeconds ?? 12),
  };
}
