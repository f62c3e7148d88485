/**
 * Test helpers of the kernel: the test clock, which time moves on only when the test says so.
 *
 * @module
 */
export { TestClock } from "./time/test_clock.ts";
