/**
 * kit: the public API of the kernel, the presentation layer and background jobs in one import.
 * Each also stands alone: `@kit/kernel`, `@kit/http`, `@kit/jobs`.
 *
 * @module
 */
export * from "./kernel/mod.ts";
export * from "./http/mod.ts";
export * from "./jobs/mod.ts";
