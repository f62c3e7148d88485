/**
 * The one wait of the tests: lets queued work run until a condition holds, and fails naming what
 * never happened. No time passes on a test clock while it waits.
 *
 * Not published: tests import it by relative path.
 */
import assert from "node:assert/strict";

/** How long `until` waits before it fails. */
export interface UntilOptions {
  /**
   * The macrotask turns to wait (default 500): enough for in-memory work woken by a test clock.
   * Ignored when `ms` is given.
   */
  readonly turns?: number;
  /** Wall time to wait instead, for work that goes over the network (a database round trip). */
  readonly ms?: number;
}

/**
 * Waits until `condition` holds: one macrotask turn per check (2 ms apart when bounded by `ms`),
 * failing with `timed out waiting for <what>`.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  options: UntilOptions = {},
): Promise<void> {
  const deadline = options.ms === undefined ? undefined : Date.now() + options.ms;
  const turns = options.turns ?? 500;
  for (let turn = 0; deadline !== undefined || turn < turns; turn++) {
    if (await condition()) return;
    if (deadline !== undefined && Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, deadline === undefined ? 0 : 2));
  }
  assert.fail(`timed out waiting for ${what}`);
}
