/**
 * Test helpers of `@kit/jobs`: the conformance suite every job store passes.
 *
 * @module
 */
export * from "./testing/job_store_contract.ts";
export * from "./testing/upstash_rest_bridge.ts";
export * from "./testing/process_manager_contract.ts";
