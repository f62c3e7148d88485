/**
 * The tenant a request runs for: the one it names (checked for shape here, for membership by the
 * pipeline), else the caller's only tenant. Internal to the pipeline.
 *
 * @module
 */
import type { Actor } from "@kit/kernel";
import { defaultTenant } from "@kit/kernel/internal";
import { isWellFormed } from "./unstorable_text.ts";

/** The longest tenant id a request may name, in UTF-16 code units. */
export const maxTenantIdLength = 128;

// C0 and C1 control characters, DEL, and the line and paragraph separators.
// deno-lint-ignore no-control-regex
const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * What is wrong with a tenant id a request names, as a problem's detail, or `undefined` when it
 * may be passed on: it must not be empty, longer than {@linkcode maxTenantIdLength}, hold a
 * control character or be ill-formed UTF-16.
 */
export function tenantIdFault(tenantId: string): string | undefined {
  if (tenantId.length === 0) return "The tenant the request names is empty";
  if (tenantId.length > maxTenantIdLength) {
    return `The tenant the request names is longer than ${maxTenantIdLength} characters`;
  }
  if (control.test(tenantId)) return "The tenant the request names holds a control character";
  if (!isWellFormed(tenantId)) return "The tenant the request names is not well-formed text";
  return undefined;
}

/**
 * The tenant the work of a request runs for: the one the request names, else the caller's only
 * tenant (`defaultTenant`); none for a caller of several tenants who names none, or an anonymous
 * one.
 */
export function tenantOfWork(
  named: string | undefined,
  actor: Actor | undefined,
): string | undefined {
  if (named !== undefined) return named;
  return actor === undefined ? undefined : defaultTenant(actor);
}
