import type { FunctionRoute } from "@kit/http";
// kit:begin function-route-imports
import { putCalendar } from "../contexts/scheduling/presentation/http/put-calendar.route.ts";
// kit:end

/** The function routes (`defineRoute`) of every context, sorted. */
export const functionRoutes: readonly FunctionRoute[] = [
  // kit:begin function-routes
  putCalendar,
  // kit:end
];
