import assert from "node:assert/strict";
import { runMeasure, untilCompleted } from "./measure.mjs";

/**
 * An in-memory queue: its jobs start one a microtask after `startWorker` returned, and its store
 * answers `completed()` late: none, then half, then all.
 */
function fakeAdapter(options: { begin?: boolean } = {}) {
  let queued = 0;
  const asked: boolean[] = [];
  let startedAll = false;
  return {
    asked,
    get startedAll() {
      return startedAll;
    },
    reset: () => Promise.resolve(),
    enqueue: () => Promise.resolve(void queued++),
    enqueueBatch: (ns: number[]) => Promise.resolve(void (queued += ns.length)),
    async startWorker(_c: number, onStart: () => void, begin: () => void) {
      if (options.begin !== false) begin();
      void (async () => {
        for (let i = 0; i < queued; i++) {
          await Promise.resolve();
          onStart();
        }
        startedAll = true;
      })();
      await Promise.resolve();
    },
    completed() {
      asked.push(startedAll);
      return Promise.resolve([0, queued / 2, queued][Math.min(asked.length - 1, 2)]!);
    },
    stopWorker: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

Deno.test("process: counted to the last completion written, asked only after every start", async () => {
  const adapter = fakeAdapter();
  const result = await runMeasure(adapter, {
    measure: "process",
    jobs: 300,
    concurrency: 1,
    samples: 0,
    maxSeconds: 30,
  });
  assert.equal(result.jobs, 300);
  assert.equal(result.started, 300);
  assert.deepEqual(adapter.asked, [true, true, true], "asked after every start, until all written");
  assert.ok(result.rate! > 0 && result.fromFirstStart! > 0);
});

Deno.test("process: an adapter that never says when it begins is refused", async () => {
  await assert.rejects(
    runMeasure(fakeAdapter({ begin: false }), {
      measure: "process",
      jobs: 10,
      concurrency: 1,
      samples: 0,
      maxSeconds: 30,
    }),
    /the adapter never called begin\(\)/,
  );
});

Deno.test("untilCompleted: stops at the deadline with what completed by then", async () => {
  let calls = 0;
  const adapter = { completed: () => Promise.resolve(++calls) };
  const never = new Promise<void>(() => {});
  const result = await untilCompleted(adapter, 1_000, never, performance.now() - 1);
  assert.equal(result.jobs, 1);
  assert.equal(calls, 1);
});
