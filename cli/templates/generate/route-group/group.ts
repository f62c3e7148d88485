import { $guardImport$, RouteGroup } from "@kit/http";

/** The routes under $prefix$, for $callers$. */
@RouteGroup({ prefix: "$prefix$", tags: ["$context$"], guards: [$guard$] })
export class $name$ {}
