import { type Clock, type Token, token } from "@kit/kernel";
import { systemClock } from "@kit/kernel/internal";
import type { GuardRefusal } from "../pipeline/handle_request.ts";

/** One entry of the audit trail. */
export interface AuditEntry {
  /** When it happened. */
  readonly at: Date;
  /** What happened (`http.guard-refused`). */
  readonly action: string;
  /** Who did it. */
  readonly actorId: string;
  /** Facts about it. */
  readonly details: Readonly<Record<string, string>>;
}

/** The port of the audit trail. */
export interface AuditTrail {
  /** Keeps an entry. */
  record(entry: AuditEntry): Promise<void>;
}

/** The token of the audit trail. */
export const AuditTrail: Token<AuditTrail> = token<AuditTrail>("AuditTrail");

/**
 * An `onGuardRefusal` that writes the refusals of identified callers to the audit trail; those
 * of callers with no credential are left to the access log and rate limiting.
 *
 * @example
 * ```ts ignore
 * httpPlugin({ onGuardRefusal: auditGuardRefusals(auditTrail) })
 * ```
 */
export function auditGuardRefusals(
  trail: AuditTrail,
  options: { clock?: Clock } = {},
): (refusal: GuardRefusal) => Promise<void> {
  const clock = options.clock ?? systemClock;
  return async function auditGuardRefusal(refusal: GuardRefusal): Promise<void> {
    if (refusal.actor === undefined) return;
    await trail.record({
      at: clock.now(),
      action: "http.guard-refused",
      actorId: refusal.actor.id,
      details: {
        route: refusal.route,
        guard: refusal.guard,
        code: (refusal.error as { code?: string }).code ?? refusal.error.name,
      },
    });
  };
}
