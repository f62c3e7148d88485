/**
 * The one wait of the tests: lets queued work run until a condition holds, and fails naming what
 * never happened. No time passes on a test clock while it waits.
 *
 * Not published: tests import it by relative path.
 */
import assert from "node:assert/strict";
import { turns } from "./turn.ts";

/** The fast turns (`setImmediate`) tried before the timed ones: in-memory work needs no more. */
const fastTurns = 100;

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
 * Waits until `condition` holds: one macrotask turn per check, failing with `timed out waiting for
 * <what>`. Bounded by `ms`: checks 2 ms apart until `ms` have passed. Bounded by turns: first
 * 100 checks a fast turn apart (`setImmediate`: work woken by a test clock needs microtasks
 * only), then `turns` checks a `setTimeout(0)` apart; the fast checks come on top of the budget,
 * never out of it.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  options: UntilOptions = {},
): Promise<void> {
  for (let turn = 0; options.ms === undefined && turn < fastTurns; turn++) {
    if (await condition()) return;
    await turns();
  }
  const deadline = options.ms === undefined ? undefined : Date.now() + options.ms;
  const budget = options.turns ?? 500;
  for (let turn = 0; deadline !== undefined || turn < budget; turn++) {
    if (await condition()) return;
    if (deadline !== undefined && Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, deadline === undefined ? 0 : 2));
  }
  assert.fail(`timed out waiting for ${what}`);
}
