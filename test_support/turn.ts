/**
 * One macrotask turn of the tests: every microtask queued before it runs first. A turn of
 * `setImmediate`, not of `setTimeout(0)`: Deno holds a timer to its next millisecond (2.3 ms a
 * turn measured on Deno 2.9, 0.01 ms for `setImmediate`), so a test that lets work woken by a
 * test clock run 350 times waited 0.8 s for nothing.
 *
 * Not published: tests import it by relative path.
 *
 * @module
 */
import { setImmediate } from "node:timers";

/** Waits `count` macrotask turns (default 1); no time passes on a test clock meanwhile. */
export async function turns(count = 1): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
