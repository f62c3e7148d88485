import type { Authenticator } from "../pipeline/authenticator.ts";
import type { RouteParts } from "../pipeline/compiled_route.ts";
import { impliedCodes } from "./pipeline_codes.ts";
import { type DeclaredCode, resolveRouteErrors, type RouteErrorCode } from "./route_errors.ts";

/** What the HTTP plugin tells a route compiling its contract. */
export interface ContractContext {
  /** The project's statuses by code (`httpPlugin({ statusByCode })`), over every other. */
  readonly statusByCode: Readonly<Record<string, number>>;
  /** Whether any authenticator is configured. */
  readonly authenticates: boolean;
  /** The plugin's authenticators, in order (a route runs those of the schemes it requires). */
  readonly authenticators: readonly Authenticator[];
  /** The schemes a closed route requires when it names none (`httpPlugin({ security })`). */
  readonly security: readonly string[];
  /** The schemes `httpPlugin({ securitySchemes })` defines. */
  readonly securitySchemes: ReadonlySet<string>;
  /**
   * Whether the tenant is named only by the path's `:tenantId` (the default `tenantOf`); else
   * (a project's `tenantOf`, a header) every request can name one.
   */
  readonly tenantInPathOnly: boolean;
  /** Whether a body read can time out (`bodyTimeoutMs` is finite). */
  readonly bodyTimeout: boolean;
}

/** What a route is, as far as the codes the pipeline answers on it go. */
export interface RouteShape {
  /** Its full path, `:name` parameters. */
  readonly path: string;
  /** The parts it validates. */
  readonly parts: RouteParts;
  /** It negotiates its media type. */
  readonly negotiates: boolean;
  /** It is open to anyone (`Public`, `security: []`): no credential is read. */
  readonly public: boolean;
  /** It needs an identified caller though no guard says so (401 without one). */
  readonly requiresCaller: boolean;
  /** The bus it can send to. */
  readonly sends: "command" | "query" | "none";
  /** It honours `Idempotency-Key` (its store can be unreachable). */
  readonly idempotent: boolean;
}

/**
 * Every code a route may answer, with its status: those it declares (with its groups' and
 * guards') and those the pipeline implies for its shape. Refuses a code of unknown status.
 */
export function routeErrors(
  context: ContractContext,
  route: string,
  declared: readonly DeclaredCode[],
  shape: RouteShape,
): ReadonlyMap<string, RouteErrorCode> {
  const { parts } = shape;
  const implied = impliedCodes({
    validates: parts.params !== undefined || parts.query !== undefined ||
      parts.headers !== undefined || parts.body !== undefined,
    hasPathParameter: shape.path.includes("/:"),
    readsBody: parts.body !== undefined,
    bodyTimeout: context.bodyTimeout,
    negotiates: shape.negotiates,
    authenticates: context.authenticates && !shape.public,
    requiresCaller: shape.requiresCaller,
    namesTenant: !context.tenantInPathOnly || shape.path.split("/").includes(":tenantId"),
    sends: shape.sends,
  });
  if (shape.idempotent) implied.push("SERVICE_UNAVAILABLE");
  return resolveRouteErrors(route, declared, implied, context.statusByCode);
}
