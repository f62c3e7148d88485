import type { FunctionRoute } from "@kit/http";
// kit:begin function-route-imports
// kit:end

/** The function routes (`defineRoute`) of every context, sorted. */
export const functionRoutes: readonly FunctionRoute[] = [
  // kit:begin function-routes
  // kit:end
];
