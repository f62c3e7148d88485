import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { TestClock } from "@kit/kernel/testing";
import { Wakeup } from "./wakeup.ts";

/** Whether the promise settled within a turn of the event loop. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  promise.then(() => (done = true));
  await turns();
  return done;
}

Deno.test("Wakeup.wake() ends the waits under way", async () => {
  const wakeup = new Wakeup(new TestClock(), 1_000);
  const never = new AbortController().signal;
  const waits = [wakeup.wait(never), wakeup.wait(never)];
  assert.equal(await settled(Promise.all(waits).then(() => {})), false);
  wakeup.wake();
  assert.equal(await settled(Promise.all(waits).then(() => {})), true);
});

Deno.test("Wakeup.wake() while no wait is under way ends the next one at once, once", async () => {
  const wakeup = new Wakeup(new TestClock(), 1_000);
  const never = new AbortController().signal;
  wakeup.wake();
  assert.equal(await settled(wakeup.wait(never)), true);
  assert.equal(await settled(wakeup.wait(never)), false);
});

Deno.test("Wakeup.wait() ends after the poll interval, or at the stop", async () => {
  const clock = new TestClock();
  const wakeup = new Wakeup(clock, 1_000);
  const polled = wakeup.wait(new AbortController().signal);
  clock.advance(999);
  assert.equal(await settled(polled), false);
  clock.advance(1);
  assert.equal(await settled(polled), true);
  const stopping = new AbortController();
  const stopped = wakeup.wait(stopping.signal);
  stopping.abort();
  assert.equal(await settled(stopped), true);
});

Deno.test("Wakeups are per loop: a wake-up while one loop waits is not lost for another that does not", async () => {
  const clock = new TestClock();
  const never = new AbortController().signal;
  const waiting = new Wakeup(clock, 1_000);
  const claiming = new Wakeup(clock, 1_000);
  const wait = waiting.wait(never);
  for (const wakeup of [waiting, claiming]) wakeup.wake();
  assert.equal(await settled(wait), true);
  assert.equal(await settled(claiming.wait(never)), true);
});

Deno.test("Wakeup.wait() leaves no listener on the stop signal once it ended (by a wake-up, a poll or the stop)", async () => {
  const clock = new TestClock();
  const wakeup = new Wakeup(clock, 1_000);
  const stopping = new AbortController();
  const listeners = new Set<unknown>();
  const signal = stopping.signal;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (type: string, listener: unknown, options?: unknown) => {
    listeners.add(listener);
    add(type, listener as EventListener, options as AddEventListenerOptions);
  };
  signal.removeEventListener = (type: string, listener: unknown, options?: unknown) => {
    listeners.delete(listener);
    remove(type, listener as EventListener, options as EventListenerOptions);
  };
  const woken = wakeup.wait(signal);
  assert.equal(listeners.size, 1);
  wakeup.wake();
  assert.equal(await settled(woken), true);
  assert.equal(listeners.size, 0, "ended by a wake-up");
  const polled = wakeup.wait(signal);
  clock.advance(1_000);
  assert.equal(await settled(polled), true);
  assert.equal(listeners.size, 0, "ended by the poll interval");
  const stopped = wakeup.wait(signal);
  stopping.abort();
  assert.equal(await settled(stopped), true);
  assert.equal(listeners.size, 0, "ended by the stop");
});
