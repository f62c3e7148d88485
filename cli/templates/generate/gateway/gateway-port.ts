import { token } from "@kit/kernel";

/** What the $context$ context needs from $upstream$ (upstream), in $context$'s own words. */
export interface $port$ {
  /** The upstream context this gateway reads. */
  readonly upstream: "$upstream$";
  // TODO(domain): the questions $context$ asks $upstream$.
}

/** The token $port$ is provided under. */
export const $port$ = token<$port$>("$context$.$port$");
