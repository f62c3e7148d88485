import type { ConceptError, ErrorReporter } from "@kit/kernel";
import { statusOfKind } from "@kit/kernel/internal";
import type { RouteErrorCode } from "./route_errors.ts";
import { pipelineCodes } from "./pipeline_codes.ts";

/** What a route answering a code it does not declare does (see `HttpPluginOptions`). */
export type UndeclaredErrors = "refuse" | "report";

/** What {@linkcode refusalStatus} needs of the pipeline. */
export interface RefusalMapping {
  /** The project's overrides over the kernel's statuses. */
  readonly statusByCode: Readonly<Record<string, number>>;
  readonly errorReporter: ErrorReporter;
  /** `refuse` (development, tests): 500; `report` (production): answered and reported. */
  readonly undeclaredErrors?: UndeclaredErrors;
}

/**
 * Thrown (reported, never answered) when a route answers a code it does not declare: its
 * contract would lie.
 */
export class UndeclaredErrorCode extends Error {
  /** Names the route and the code; the refusal is the cause. */
  constructor(route: string, refusal: ConceptError) {
    super(
      `${route} answered code '${refusal.code}', which it does not declare: list it in the route's errors (or its group's)`,
      { cause: refusal },
    );
    this.name = "UndeclaredErrorCode";
  }
}

/**
 * The status a refusal answers on a route: the one the route declares for its code. A code the
 * route does not declare is reported to the error reporter; under `refuse` it answers nothing
 * (`undefined`: the pipeline answers 500), under `report` its own status (the project's map,
 * its declaration, kit's, its kind's).
 */
export function refusalStatus(
  mapping: RefusalMapping,
  route: {
    readonly method: string;
    readonly path: string;
    readonly errors: ReadonlyMap<string, RouteErrorCode>;
  },
  refusal: ConceptError,
): number | undefined {
  const declared = route.errors.get(refusal.code);
  if (declared !== undefined) return declared.status;
  mapping.errorReporter.report(
    new UndeclaredErrorCode(`${route.method} ${route.path}`, refusal),
    { origin: "http", details: { route: `${route.method} ${route.path}`, code: refusal.code } },
  );
  if (mapping.undeclaredErrors === "refuse") return undefined;
  const own = (refusal as { status?: unknown }).status;
  return mapping.statusByCode[refusal.code] ??
    (typeof own === "number" ? own : undefined) ??
    pipelineCodes[refusal.code]?.status ??
    statusOfKind[refusal.kind] ?? 422;
}
