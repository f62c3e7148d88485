import type { Registration } from "@kit/kernel";
import { $port$ } from "../application/ports/$kebab$.ts";
$retryingImport$
/** $port$ $where$. */
export class $adapter$ implements $port$ {
$httpClient$  // TODO(domain): the operations of $port$$translating$.
}

/** How the platform provides $port$ in the $context$ context$baseUrlFrom$. */
export const $registration$: Registration = {
  provide: $port$,
  provider: { useFactory: (): $port$ => $build$ },
};
