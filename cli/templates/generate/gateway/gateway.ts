import type { Registration } from "@kit/kernel";
import { $port$ } from "../application/ports/$upstream$-gateway.ts";

/**
 * $port$ over the $upstream$ context: imports only $upstream$'s published-language/ and
 * translates it into $context$'s words (an anti-corruption layer).
 */
export class $adapter$ implements $port$ {
  readonly upstream = "$upstream$" as const;
}

/** How the platform provides $port$ in the $context$ context. */
export const $registration$: Registration = {
  provide: $port$,
  provider: { useClass: $adapter$, deps: [] },
};
