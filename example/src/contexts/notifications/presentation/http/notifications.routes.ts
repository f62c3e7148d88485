import { Authenticated, RouteGroup } from "@kit/http";

/** The routes under /notifications, for identified callers. */
@RouteGroup({
  prefix: "/notifications",
  tags: ["notifications"],
  guards: [Authenticated],
})
export class Notifications {}
