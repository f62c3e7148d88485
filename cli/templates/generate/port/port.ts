import { token } from "@kit/kernel";

/** $name$: what the $context$ context needs from outside, in its own words. */
// deno-lint-ignore no-empty-interface -- the worker adds the operations
export interface $name$ {
  // TODO(domain): the operations the use cases need.
}

/** The token $name$ is provided under (an adapter in infrastructure/). */
export const $name$ = token<$name$>("$context$.$name$");
