// The backoff lives beside the kernel's declaration of background jobs, which defaults to it (the
// module builder declares jobs too); `@kit/jobs` keeps publishing it.
export { exponentialBackoff, type ExponentialBackoffOptions } from "@kit/kernel/internal";
export type { Backoff } from "@kit/kernel/types";
