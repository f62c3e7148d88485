import type { ErrorCode } from "@kit/kernel";
import { isErrorCode, kernelStatusByCode } from "@kit/kernel/internal";
import { pipelineCodes } from "./pipeline_codes.ts";

/**
 * An error code as a route, group or guard declares it: a code declared with its status
 * (`schedulingErrors.SLOT_TAKEN`, from `defineErrorCodes`), or the name of a code whose status
 * is known without it (kit's own: `FORBIDDEN`, `TENANT_REQUIRED`...; or one the project maps in
 * `httpPlugin({ statusByCode })`).
 */
export type DeclaredCode = string | ErrorCode;

/** One code a route may answer: its one status, and what it means. */
export interface RouteErrorCode {
  /** The HTTP status it answers. */
  readonly status: number;
  /** What it means, when declared. */
  readonly description?: string;
  /** Where its status comes from: a context's declaration, the project's map, or kit. */
  readonly source: string;
}

/** The name of a declared code. */
export function codeName(code: DeclaredCode): string {
  return typeof code === "string" ? code : code.code;
}

/**
 * Every code a route may answer, with its status, sorted by code: the codes it declares (its
 * groups', its guards', its own) and those the pipeline implies for it. The project's
 * `statusByCode` overrides any status. A code whose status is not known (not declared with
 * `defineErrorCodes`, not kit's, not mapped) is refused, naming the route.
 *
 * @param route The route, for messages (`Controller 'BookAppointment'`).
 * @param declared The codes it declares.
 * @param implied The codes the pipeline may answer on it (see `impliedCodes`).
 * @param statusByCode The project's overrides.
 */
export function resolveRouteErrors(
  route: string,
  declared: readonly DeclaredCode[],
  implied: readonly string[],
  statusByCode: Readonly<Record<string, number>>,
): ReadonlyMap<string, RouteErrorCode> {
  const found = new Map<string, RouteErrorCode>();
  const add = (code: string, resolved: RouteErrorCode) => {
    const existing = found.get(code);
    if (existing !== undefined && existing.status !== resolved.status) {
      throw new Error(
        `${route} declares code '${code}' with two statuses: ${existing.status} (${existing.source}) and ${resolved.status} (${resolved.source})`,
      );
    }
    if (existing === undefined || existing.description === undefined) found.set(code, resolved);
  };
  for (const code of [...declared, ...implied]) {
    if (typeof code !== "string" && !isErrorCode(code)) {
      throw new TypeError(
        `${route} declares ${
          String(code)
        } as an error code: use a code of defineErrorCodes() or a code's name`,
      );
    }
    const name = codeName(code);
    const override = statusByCode[name];
    if (override !== undefined) {
      add(name, {
        status: override,
        ...(descriptionOf(code) ? { description: descriptionOf(code)! } : {}),
        source: "statusByCode",
      });
    } else if (typeof code !== "string") {
      add(name, {
        status: code.status,
        description: code.description,
        source: `context '${code.context}'`,
      });
    } else {
      const known = pipelineCodes[name];
      const kernel = kernelStatusByCode[name];
      if (known === undefined && kernel === undefined) {
        throw new Error(
          `${route} declares code '${name}', whose status is not known: declare it with its status in its context's defineErrorCodes() and list that declaration, or map it in httpPlugin({ statusByCode })`,
        );
      }
      add(name, {
        status: kernel ?? known!.status,
        ...(known ? { description: known.description } : {}),
        source: "kit",
      });
    }
  }
  return new Map([...found].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}

function descriptionOf(code: DeclaredCode): string | undefined {
  return typeof code === "string" ? pipelineCodes[code]?.description : code.description;
}

/**
 * Refuses codes that answer two statuses on two routes (two contexts declaring one code with
 * different statuses): a code answers one status everywhere.
 */
export function checkOneStatusPerCode(
  routes: readonly {
    readonly method: string;
    readonly path: string;
    readonly errors: ReadonlyMap<string, RouteErrorCode>;
  }[],
): void {
  const seen = new Map<string, { status: number; route: string; source: string }>();
  for (const route of routes) {
    for (const [code, { status, source }] of route.errors) {
      const first = seen.get(code);
      const where = `${route.method} ${route.path}`;
      if (first === undefined) seen.set(code, { status, route: where, source });
      else if (first.status !== status) {
        throw new Error(
          `Code '${code}' answers ${first.status} on ${first.route} (${first.source}) and ${status} on ${where} (${source}): a code has one status`,
        );
      }
    }
  }
}
