import { requirementOf } from "@kit/kernel/internal";
import type { MessageClass } from "@kit/kernel/types";

/**
 * The parts a dashboard operation's declaration shares: security and tags, the method and path,
 * its id, the message it sends (whose permission the document lists as `x-permissions`), and a
 * summary naming that permission, read from the message so that the two never differ.
 */
export function operationOf(
  common: { readonly security: readonly string[]; readonly tags: readonly string[] },
) {
  return <M extends MessageClass>(
    method: "GET" | "POST",
    path: string,
    operationId: string,
    message: M,
    summary: string,
    note?: string,
  ) => ({
    ...common,
    method,
    path,
    operationId,
    permissions: [message],
    summary: `${summary} (permission ${requirementOf(message)?.permission.name}${
      note === undefined ? "" : `; ${note}`
    })`,
  });
}
