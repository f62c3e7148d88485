import type { IntegrationEventDefinition } from "@kit/kernel";

/** Whether an exported value is an integration event declaration. */
export function isIntegrationEventDefinition(
  value: unknown,
): value is IntegrationEventDefinition<unknown> {
  return typeof value === "object" && value !== null &&
    typeof (value as { type?: unknown }).type === "string" &&
    typeof (value as { version?: unknown }).version === "number" &&
    typeof (value as { create?: unknown }).create === "function";
}
