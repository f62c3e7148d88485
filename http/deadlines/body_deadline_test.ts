import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { BodyDeadline, timedOut } from "./body_deadline.ts";

const never = new Promise<never>(() => {});

Deno.test("body deadlines started together time out together, never before their timeout", async () => {
  const started = performance.now();
  const deadlines = Array.from({ length: 50 }, () => new BodyDeadline(20));
  const reads = deadlines.map((deadline) => deadline.race(never));
  assert.deepEqual(await Promise.all(reads), deadlines.map(() => timedOut));
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 20, `timed out after ${elapsed} ms`);
  for (const deadline of deadlines) deadline.clear();
});

Deno.test("reads done in time win, and reads close together share one timer", async () => {
  const set = globalThis.setTimeout;
  let timers = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof set>) => {
    timers++;
    return set(...args);
  }) as typeof set;
  // The reads' clock stands still, so all 1,000 fall in one slot however slow the machine is.
  const now = performance.now;
  const instant = now.call(performance);
  performance.now = () => instant;
  try {
    // A timeout of its own, so no other test's slot is reused.
    for (let i = 0; i < 1000; i++) {
      const deadline = new BodyDeadline(600_000 + 1);
      assert.equal(await deadline.race(Promise.resolve(i)), i);
      deadline.clear();
    }
  } finally {
    globalThis.setTimeout = set;
    performance.now = now;
  }
  assert.equal(timers, 1);
});

Deno.test("a shared deadline timer never holds the process open after the reads", async () => {
  const module = fileURLToPath(new URL("./body_deadline.ts", import.meta.url));
  const script = `
    const { BodyDeadline } = await import(${JSON.stringify(module)});
    const deadline = new BodyDeadline(120_000);
    console.log(await deadline.race(Promise.resolve("read")));
    deadline.clear();`;
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const killer = setTimeout(() => child.kill(), 60_000);
  const output = await child.output();
  clearTimeout(killer);
  assert.equal(new TextDecoder().decode(output.stdout).trim(), "read");
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  // It exits with the script, not when the 120 s timer would fire (nor killed at 60 s).
  assert.ok(performance.now() - started < 60_000);
});

Deno.test("a read done in time is not kept by its slot's timer until it fires", async () => {
  const module = fileURLToPath(new URL("./body_deadline.ts", import.meta.url));
  // 2,000 reads of 100 KB in one slot of a 2-minute deadline: kept until the timer fires, they
  // would hold 200 MB.
  const script = `
    const { BodyDeadline } = await import(${JSON.stringify(module)});
    for (let i = 0; i < 2000; i++) {
      const deadline = new BodyDeadline(120_000);
      await deadline.race(Promise.resolve(new Uint8Array(100_000)));
      deadline.clear();
    }
    // V8 frees array buffers' memory on a background thread after a collection: on a starved
    // machine one collection can be read before its sweep ended. The least of a few collections,
    // a turn apart, is what stays (kept by the timers it would be 200 MB in every one).
    let least = Infinity;
    for (let i = 0; i < 20 && least >= 50_000_000; i++) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
      least = Math.min(least, Deno.memoryUsage().heapUsed + Deno.memoryUsage().external);
    }
    console.log(least);`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--expose-gc", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const kept = Number(new TextDecoder().decode(output.stdout).trim());
  assert.ok(kept < 50_000_000, `${kept} bytes kept after the reads`);
});

Deno.test("a deadline without a limit is the read itself", () => {
  const deadline = new BodyDeadline(Infinity);
  const read = Promise.resolve(1);
  assert.equal(deadline.race(read), read);
  deadline.clear();
});

Deno.test("reads of one slot that end in any order win, and only those still waiting time out", async () => {
  // The clock stands still while they start, so all fall in one slot.
  const now = performance.now;
  const instant = now.call(performance);
  performance.now = () => instant;
  const resolvers: ((value: number) => void)[] = [];
  const deadlines: BodyDeadline[] = [];
  const raced: Promise<number | typeof timedOut>[] = [];
  try {
    for (let i = 0; i < 8; i++) {
      const deadline = new BodyDeadline(30 + 3);
      deadlines.push(deadline);
      raced.push(deadline.race(new Promise<number>((resolve) => resolvers.push(resolve))));
    }
  } finally {
    performance.now = now;
  }
  // The newest, the oldest and two in the middle end in time; the others never.
  for (const i of [7, 0, 3, 4]) resolvers[i]!(i);
  const answers = await Promise.all(raced);
  assert.deepEqual(answers, [0, timedOut, timedOut, 3, 4, timedOut, timedOut, 7]);
  for (const deadline of deadlines) deadline.clear();
});
