import { Authenticated, RouteGroup } from "@kit/http";

/** The routes under /people, for identified callers. */
@RouteGroup({
  prefix: "/people",
  tags: ["people"],
  guards: [Authenticated],
})
export class People {}
