import { kernelStatusByCode } from "@kit/kernel/internal";

/** A code the pipeline answers by itself, with its status and what it means. */
export interface PipelineCode {
  /** The HTTP status. */
  readonly status: number;
  /** What it means, for the document. */
  readonly description: string;
}

/** The kernel's status for its own code (`CONCURRENT_UPDATE`), else `fallback`. */
const kernel = (fallback: number) => (code: string): number => kernelStatusByCode[code] ?? fallback;

/** Each code kit answers by itself: its name, its status (or the kernel's), what it means. */
const table: readonly (readonly [string, number | ((code: string) => number), string])[] = [
  ["MALFORMED_JSON", 400, "The body is not valid JSON (or not UTF-8)"],
  ["INVALID_TENANT", 400, "The tenant named is empty, too long or holds a control character"],
  [
    "TENANT_REQUIRED",
    kernel(400),
    "The work needs a tenant: the caller belongs to several, or none, and named none",
  ],
  ["IDEMPOTENCY_KEY_REQUIRED", kernel(400), "The route needs an Idempotency-Key header"],
  [
    "IDEMPOTENCY_KEY_INVALID",
    kernel(400),
    "The Idempotency-Key is empty, too long or not printable ASCII",
  ],
  ["UNAUTHORIZED", 401, "No caller is identified, or the credential was refused"],
  ["FORBIDDEN", 403, "The caller may not do this"],
  ["NOT_FOUND", 404, "Nothing answers at this path"],
  ["METHOD_NOT_ALLOWED", 405, "The path does not answer this method"],
  ["NOT_ACCEPTABLE", 406, "The route answers none of the media types asked"],
  ["REQUEST_TIMEOUT", 408, "The body did not arrive in time"],
  [
    "CONCURRENT_UPDATE",
    kernel(409),
    "Other work changed the same data meanwhile: nothing was kept, retry",
  ],
  [
    "IDEMPOTENCY_KEY_IN_USE",
    kernel(409),
    "A request with this Idempotency-Key is still being answered",
  ],
  ["CONTENT_TOO_LARGE", 413, "The body is larger than the limit"],
  ["UNSUPPORTED_MEDIA_TYPE", 415, "The body is not application/json"],
  [
    "VALIDATION_FAILED",
    422,
    "A part of the request breaks its schema: every issue, by JSON pointer",
  ],
  ["INVALID_INPUT", kernel(422), "A value passed validation but cannot be stored"],
  ["IDEMPOTENCY_KEY_REUSED", kernel(422), "The Idempotency-Key was used for another request"],
  [
    "SERVICE_UNAVAILABLE",
    kernel(503),
    "A store is unreachable: retry after the Retry-After delay",
  ],
];

/**
 * The codes kit answers by itself, the pipeline's and the kernel's, with their status: each is
 * known to every route that may meet it, without a declaration of the project's.
 */
export const pipelineCodes: Readonly<Record<string, PipelineCode>> = Object.freeze(
  Object.fromEntries(
    table.map(([code, status, description]) => [
      code,
      { status: typeof status === "number" ? status : status(code), description },
    ]),
  ),
);

/** What decides the codes the pipeline itself may answer on a route. */
export interface RouteFacts {
  /** The route declares params, query, headers or a body. */
  readonly validates: boolean;
  /** Its path has a parameter (a segment that is not valid UTF-8 answers 422). */
  readonly hasPathParameter: boolean;
  /** It reads a JSON body. */
  readonly readsBody: boolean;
  /** A body read can time out. */
  readonly bodyTimeout: boolean;
  /** It negotiates the media type of its answer (`produces`). */
  readonly negotiates: boolean;
  /** The authenticators run for it (a credential can be refused). */
  readonly authenticates: boolean;
  /** It needs an identified caller though no guard says so (401 without one). */
  readonly requiresCaller?: boolean;
  /** A request to it can name a tenant (checked: its shape, the caller's membership). */
  readonly namesTenant: boolean;
  /** The bus it can send to: a command (writes), a query, or none. */
  readonly sends: "command" | "query" | "none";
}

/**
 * The codes the pipeline and the kernel may answer on a route, by what the route does: 422
 * `VALIDATION_FAILED` where a part is validated; 400 `MALFORMED_JSON`, 408 `REQUEST_TIMEOUT`, 413
 * and 415 where a body is read; 406 where `produces` negotiates; 401 where the authenticators
 * run; 400 `INVALID_TENANT` and 403 where a tenant can be named (403: a caller who does not
 * belong to it); where a use case runs (a bus): 403 (its permission), 400 `TENANT_REQUIRED` (work
 * on tenant data for no tenant), 422 `INVALID_INPUT` (a value the store refuses), 503
 * `SERVICE_UNAVAILABLE`, and for a command 409 `CONCURRENT_UPDATE`.
 */
export function impliedCodes(facts: RouteFacts): string[] {
  const codes: string[] = [];
  if (facts.validates || facts.hasPathParameter) codes.push("VALIDATION_FAILED");
  if (facts.readsBody) {
    codes.push("MALFORMED_JSON", "CONTENT_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE");
    if (facts.bodyTimeout) codes.push("REQUEST_TIMEOUT");
  }
  if (facts.negotiates) codes.push("NOT_ACCEPTABLE");
  if (facts.authenticates || facts.requiresCaller) codes.push("UNAUTHORIZED");
  if (facts.namesTenant) {
    codes.push("INVALID_TENANT");
    if (facts.authenticates) codes.push("FORBIDDEN");
  }
  if (facts.sends !== "none") {
    codes.push("FORBIDDEN", "TENANT_REQUIRED", "INVALID_INPUT", "SERVICE_UNAVAILABLE");
    if (facts.sends === "command") codes.push("CONCURRENT_UPDATE");
  }
  return codes;
}
