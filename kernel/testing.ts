/**
 * Test helpers of the kernel.
 *
 * @module
 */
export { TestClock } from "./time/test_clock.ts";
