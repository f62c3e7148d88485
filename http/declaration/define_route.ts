// deno-lint-ignore-file no-explicit-any
import {
  type CommandBus,
  type ExecutionContext,
  type Injectable,
  type QueryBus,
  UnauthorizedError,
} from "@kit/kernel";
import type { CompositionRoot } from "@kit/kernel/internal";
import type { CompiledRoute, RouteResult } from "../pipeline/compiled_route.ts";
import { type ContractContext, routeErrors } from "../contract/route_contract.ts";
import { authenticatorsFor } from "../pipeline/route_authenticators.ts";
import type { DeclaredCode } from "../contract/route_errors.ts";
import type { Infer, Schema } from "../schema/schema.ts";
import type { HttpMethod } from "./controller.ts";
import { checkPath } from "./route_group.ts";
import { permissionNames, type RoutePermission } from "./route_permissions.ts";

/** The declaration of a function route. */
export interface FunctionRouteSpec {
  /** The HTTP method. */
  readonly method: HttpMethod;
  /** The full path; `:name` segments are parameters. */
  readonly path: string;
  /** The operation id in the document. */
  readonly operationId: string;
  /** A one-line summary. */
  readonly summary?: string;
  /** Tags in the document. */
  readonly tags?: readonly string[];
  /** Schemas of the request parts. */
  readonly request?: {
    readonly params?: Schema<any>;
    readonly query?: Schema<any>;
    readonly headers?: Schema<any>;
    readonly body?: Schema<any>;
  };
  /** The responses it may answer, by status. */
  readonly responses: Readonly<
    Record<number, { readonly description: string; readonly body?: Schema<any> }>
  >;
  /**
   * Security schemes it requires (`["bearer"]`): a caller must be identified. Required: a route
   * without it is refused when the application composes, so that forgetting it never ships an
   * open route. `[]` says, out loud, that the route is open to anyone: then, as a `Public`
   * controller, it reads no credential (its actor is anonymous, a bad token does not matter).
   */
  readonly security: readonly string[];
  /**
   * Error codes its handler may answer: declared codes (`schedulingErrors.SLOT_TAKEN`) or names
   * of codes of known status; those the pipeline answers by itself join them.
   */
  readonly errors?: readonly DeclaredCode[];
  /**
   * The permissions its use case requires, for its document: the commands and queries it sends
   * (their `@Requires` permission: `[ClearCalendar]`), or permissions (or their names). The bus
   * checks them; the operation lists them as `x-permissions`.
   */
  readonly permissions?: readonly RoutePermission[];
}

/** What a function route's handler receives: the declared parts, validated, and its context. */
export type FunctionRouteInput<S extends FunctionRouteSpec> =
  & (S["request"] extends infer R
    ? { readonly [K in keyof R as R[K] extends Schema<any> ? K : never]: Infer<R[K]> }
    : Record<never, never>)
  & {
    /**
     * The request's context: its execution context, the buses, the container, and the request
     * as received (its `signal` ends a streamed answer when the client goes away).
     */
    readonly context: {
      readonly execution: ExecutionContext;
      readonly request: Request;
      readonly commands: CommandBus;
      readonly queries: QueryBus;
      resolve<T>(key: Injectable<T>): T;
    };
  };

/** A function route, given to `httpPlugin({ routes })`. */
export interface FunctionRoute {
  /** Its declaration. */
  readonly spec: FunctionRouteSpec;
  /** Compiles it against the application, its contract against the plugin's. */
  compile(root: CompositionRoot, contract: ContractContext): CompiledRoute;
}

/**
 * Declares a route as a function: for several success statuses, its own headers, text or bytes,
 * or a route built from data at run time. It states its own security.
 *
 * @example
 * ```ts ignore
 * export const putCalendar = defineRoute({
 *   method: "PUT",
 *   path: "/calendars/:calendarId",
 *   operationId: "putCalendar",
 *   request: { params: zodSchema(z.object({ calendarId: z.string().min(1) })) },
 *   responses: { 200: { description: "Already there", body: acceptedSchema }, 201: { description: "Created", body: acceptedSchema } },
 *   security: ["bearer"],
 * }, async ({ params, context }) => {
 *   const created = await context.commands.execute(new OpenCalendar(context.execution.actor, params.calendarId));
 *   return created
 *     ? { status: 201, body: { id: params.calendarId }, headers: { location: `/calendars/${params.calendarId}` } }
 *     : { status: 200, body: { id: params.calendarId } };
 * });
 * ```
 */
export function defineRoute<const S extends FunctionRouteSpec>(
  spec: S,
  handler: (input: FunctionRouteInput<S>) => RouteResult | Promise<RouteResult>,
): FunctionRoute {
  checkPath(spec.path, "path");
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(spec.operationId ?? "")) {
    throw new TypeError(
      `Invalid operationId ${JSON.stringify(spec.operationId)} of route '${spec.path}'`,
    );
  }
  const statuses = Object.keys(spec.responses ?? {}).map(Number);
  if (statuses.length === 0 || statuses.some((s) => !Number.isInteger(s) || s < 100 || s > 599)) {
    throw new TypeError(`Route '${spec.operationId}' needs responses keyed by HTTP status`);
  }
  return {
    spec,
    compile(root: CompositionRoot, contract: ContractContext): CompiledRoute {
      if (!Array.isArray(spec.security)) {
        throw new TypeError(
          `Route '${spec.operationId}' says no security: name the schemes it requires (security: ["bearer"]), or security: [] for a route open to anyone`,
        );
      }
      const security = [...spec.security].sort();
      const permissions = permissionNames(spec.permissions);
      const request = spec.request ?? {};
      const errors = routeErrors(
        contract,
        `Route '${spec.operationId}'`,
        [...(spec.errors ?? []), ...(security.length > 0 ? ["UNAUTHORIZED"] : [])],
        {
          path: spec.path,
          parts: request,
          negotiates: false,
          public: security.length === 0,
          requiresCaller: false,
          sends: ["POST", "PUT", "PATCH", "DELETE"].includes(spec.method) ? "command" : "query",
          idempotent: false,
        },
      );
      const identified = {
        check(r: { actor: unknown }): void {
          if (r.actor === undefined) throw new UnauthorizedError();
        },
      };
      return {
        method: spec.method,
        path: spec.path,
        operationId: spec.operationId,
        ...(spec.summary ? { summary: spec.summary } : {}),
        tags: spec.tags ?? [],
        ...(permissions.length > 0 ? { permissions } : {}),
        guards: security.length > 0 ? [() => identified] : [],
        guardNames: security.length > 0 ? [`security(${security.join(", ")})`] : [],
        errors,
        security,
        authenticators: authenticatorsFor(
          contract.authenticators,
          contract.securitySchemes,
          `Route '${spec.operationId}'`,
          security,
          security.length === 0,
        ),
        parts: request,
        responses: new Map(
          statuses.sort((a, b) => a - b).map((status) => [status, spec.responses[status]!]),
        ),
        produces: ["application/json"],
        negotiates: false,
        public: security.length === 0,
        requiresCaller: false,
        needsScope: true,
        run: async (validated, raw) => {
          const execution = validated.context as ExecutionContext;
          const input = {
            ...validated,
            context: {
              execution,
              request: raw,
              commands: root.commands,
              queries: root.queries,
              resolve: <T>(key: Injectable<T>): T => root.container.resolve(key),
            },
          };
          return await handler(input as unknown as FunctionRouteInput<S>);
        },
      };
    },
  };
}
