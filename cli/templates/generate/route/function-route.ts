// kit:begin route imports
import { defineRoute, type FunctionRoute$zodSchemaImport$ } from "@kit/http";
$imports$
// kit:end

// kit:begin route schemas
$schemas$
// kit:end

/**
 * $method$ $fullPath$: $message$, a function route (`defineRoute`, registered in
 * src/platform/function-routes.ts): it states its own security, and no route group's guards apply.
 */
export const $routeName$: FunctionRoute = defineRoute({
  method: "$method$",
  path: "$fullPath$",
  permissions: [$message$],
  operationId: "$operationId$",
  summary: "$summary$",
  tags: ["$context$"],
  security: ["bearer"],
  // kit:begin route contract
  $request$
  responses: { $status$: { description: "$description$"$answerBody$ } },$errors$
  // kit:end
}, async (input) => {
  // kit:begin route call
  $call$
  // kit:end
});
