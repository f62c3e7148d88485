// deno-lint-ignore-file no-explicit-any
import type { AnyClass, Duration } from "@kit/kernel";
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "@kit/kernel/internal";
import type { Infer, Schema } from "../schema/schema.ts";
import type { DeclaredCode } from "../contract/route_errors.ts";
import type { GuardLike } from "./guard.ts";
import type { RoutePermission } from "./route_permissions.ts";
import type { HttpRequest } from "./http_request.ts";
import { Public } from "./built_in_guards.ts";
import { checkPath } from "./route_group.ts";

/** The HTTP methods a route answers. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";

/** The cache policy of a read route. */
export interface CachePolicy {
  /** `Cache-Control` max-age in seconds. */
  readonly maxAge?: number;
  /** `private` (per caller) or `public` (shared caches). */
  readonly scope?: "public" | "private";
  /** Send an `ETag` of the body and answer `304` to a matching `If-None-Match`. */
  readonly etag?: boolean;
  /** Cache tags sent in `Cache-Tag`, for CDN purges; a function may read the params. */
  readonly tags?:
    | readonly string[]
    | ((params: Readonly<Record<string, string>>) => readonly string[]);
}

/** The declaration of a controller route. */
export interface ControllerSpec {
  /** The route group; optional. */
  readonly group?: AnyClass;
  /** The HTTP method. */
  readonly method: HttpMethod;
  /** The path after the group prefix; `/` for the group root; `:name` segments are parameters. */
  readonly path: string;
  /** A one-line summary for the document. */
  readonly summary?: string;
  /** Guards, after the group's. */
  readonly guards?: readonly GuardLike[];
  /** Schema of the path parameters. */
  readonly params?: Schema<any>;
  /** Schema of the query string. */
  readonly query?: Schema<any>;
  /** Schema of the headers (by lower-case name). */
  readonly headers?: Schema<any>;
  /** Schema of the JSON body. */
  readonly body?: Schema<any>;
  /** The success response. */
  readonly response: {
    readonly status: number;
    readonly description?: string;
    readonly body?: Schema<any>;
    /**
     * The `Location` of the answer (RFC 9110 §10.2.2: the resource a 201 created, the status
     * monitor of a 202), from what the handler answered and the request: set on every success
     * and stated as a header of the response in the document. Build it from ids with
     * `encodeURIComponent`. `request` is the handler's `HttpRequest` (its validated parts). The
     * types its parameters state must accept the route's answer and request (`LocationFits`):
     * TypeScript checks them but cannot infer them inside the declaration.
     *
     * @example
     * ```ts ignore
     * response: {
     *   status: 202,
     *   body: acceptedSchema,
     *   location: (answer, request) =>
     *     `/calendars/${encodeURIComponent(request.params.calendarId)}/clearances/${encodeURIComponent(answer.id)}`,
     * },
     * ```
     */
    readonly location?: (answer: any, request: any) => string;
  };
  /**
   * Error codes the handler may answer: codes declared with their status by its context
   * (`schedulingErrors.SLOT_TAKEN`, see `defineErrorCodes`), or names of codes whose status is
   * known (kit's own, or mapped in `httpPlugin({ statusByCode })`). The codes of its groups and
   * guards, and those the pipeline answers by itself, join them; a code of unknown status is
   * refused when the application composes.
   */
  readonly errors?: readonly DeclaredCode[];
  /**
   * The permissions its use case requires, for its document: the commands and queries it sends
   * (their `@Requires` permission: `[CancelAppointment]`), or permissions (or their names). The
   * bus checks them; the operation lists them, with its guards', as `x-permissions`.
   */
  readonly permissions?: readonly RoutePermission[];
  /** Media types the route answers in (default `application/json`). */
  readonly produces?: readonly string[];
  /** Cache policy. */
  readonly cache?: CachePolicy;
  /**
   * Honours the `Idempotency-Key` request header (IETF draft "The Idempotency-Key HTTP Header
   * Field"): the first answer to a key is kept in the same unit of work as the use case and
   * replayed (with `Idempotent-Replayed: true`) to a retry with the same key and request; the
   * same key with another request answers 422 `IDEMPOTENCY_KEY_REUSED`, a retry while the first
   * is still being answered 409 `IDEMPOTENCY_KEY_IN_USE`; a use case that fails keeps nothing.
   * Keys belong to one caller, tenant and route. Needs `httpPlugin({ idempotency: { store } })`.
   * For writes (`POST`, `PUT`, `PATCH`, `DELETE`) only.
   */
  readonly idempotent?: boolean | IdempotencyOptions;
}

/** The options of an idempotent route. */
export interface IdempotencyOptions {
  /** Refuse a request without the header: 400 `IDEMPOTENCY_KEY_REQUIRED` (default false). */
  readonly required?: boolean;
  /** How long an answer is kept for its key (default `24h`). */
  readonly keepFor?: Duration;
}

/**
 * The request a controller's `handle` takes for a declaration: exactly its declared parts, typed as
 * their schemas' outputs, with the actor and the context. Name it from the route's constant
 * (`controllerRoute`): `handle(request: RequestOf<typeof route>)`.
 *
 * @example
 * ```ts ignore
 * const route = controllerRoute({ method: "POST", path: "/notes", guards: [Authenticated], body, response: { status: 204 } });
 *
 * @Controller(route)
 * export class WriteNoteController {
 *   handle(request: RequestOf<typeof route>): void {
 *     console.log(request.body);
 *   }
 * }
 * ```
 */
export type RequestOf<D extends ControllerSpec> = HttpRequest<
  {
    readonly [
      K in "params" | "query" | "headers" | "body" as D[K] extends Schema<any> ? K : never
    ]: Infer<D[K]>;
  }
>;

/**
 * What a controller's `handle` answers for a declaration: the output type of its response body,
 * or `void` when the response has none (`Promise<ResponseOf<typeof route>>` for an async one).
 */
export type ResponseOf<D extends ControllerSpec> = D["response"] extends { body: Schema<infer T> }
  ? T
  : void;

/**
 * A declaration whose `response.location` takes what its handler answers and its request: the
 * types its parameters state must accept the route's (`ResponseOf`, `RequestOf`).
 */
export type LocationFits<D extends ControllerSpec> = {
  readonly response: {
    readonly location?: (answer: ResponseOf<D>, request: RequestOf<D>) => string;
  };
};

/** A controller class fitting a declaration (the constraint that reports errors on the decorator). */
export type ControllerClass<D extends ControllerSpec> = abstract new (...args: any[]) => {
  handle: (request: RequestOf<D>) => ResponseOf<D> | Promise<ResponseOf<D>>;
};

/** The declaration kind of controllers. */
export const controllerDeclarations: DeclarationKind<ControllerSpec> = declarationKind<
  ControllerSpec
>(
  "controller",
);

/**
 * Declares a controller's route once, as a constant for `@Controller(route)`: its handler then
 * names its request and answer from it (`RequestOf<typeof route>`, `ResponseOf<typeof route>`)
 * instead of restating the schemas' types (TypeScript does not type a method's parameter from its
 * class's decorator). The model is Hono's `createRoute` and `RouteHandler<typeof route>`. It
 * answers the declaration as given, its literal types kept, once its method, path and status are
 * checked.
 *
 * @example
 * ```ts ignore
 * const route = controllerRoute({
 *   group: AppointmentRoutes,
 *   method: "POST",
 *   path: "/:appointmentId/cancellation",
 *   params: zodSchema(z.object({ appointmentId: z.string().min(1) })),
 *   body: zodSchema(z.object({ reason: z.string().min(1) })),
 *   response: { status: 201, body: acceptedSchema },
 * });
 *
 * @Controller(route)
 * export class CancelAppointmentController {
 *   constructor(private readonly commands: CommandBus) {}
 *   handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
 *     return this.commands.execute(new CancelAppointment(request.actor, request.params.appointmentId, request.body.reason));
 *   }
 * }
 * ```
 */
export function controllerRoute<const D extends ControllerSpec>(spec: D & LocationFits<D>): D {
  checkSpec(spec);
  return spec;
}

/**
 * Declares a route: one class with one method `handle`. The same declaration drives validation,
 * the OpenAPI document and the error contract. `handle` may read only the declared parts, typed as
 * their schemas' outputs, and must answer the response body's type: anything else does not
 * compile, and the error is reported on this decorator. Declared as a constant (`controllerRoute`),
 * the route gives `handle` its types: `RequestOf<typeof route>`, `ResponseOf<typeof route>`.
 *
 * @example
 * ```ts ignore
 * const route = controllerRoute({
 *   group: AppointmentRoutes,
 *   method: "POST",
 *   path: "/:appointmentId/cancellation",
 *   params: zodSchema(z.object({ appointmentId: z.string().min(1) })),
 *   body: zodSchema(z.object({ reason: z.string().min(1) })),
 *   response: { status: 201, body: acceptedSchema },
 *   errors: ["APPOINTMENT_NOT_FOUND", "APPOINTMENT_ENDED"],
 * });
 *
 * @Controller(route)
 * export class CancelAppointmentController {
 *   constructor(private readonly commands: CommandBus, private readonly mapper: CancelAppointmentMapper) {}
 *   async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
 *     await this.commands.execute(this.mapper.map(request));
 *     return { id: request.params.appointmentId };
 *   }
 * }
 * ```
 */
export function Controller<const D extends ControllerSpec>(
  spec: D & LocationFits<D>,
): KitClassDecorator<ControllerClass<D>> {
  checkSpec(spec);
  return classDecorator<ControllerClass<D>>("Controller", (target) => {
    if (spec.group === undefined && (spec.guards ?? []).length === 0) {
      throw new TypeError(
        `Controller '${target.name}' has no group and no guard: every route is closed unless it declares ` +
          `a group, a guard, or guards: [Public]`,
      );
    }
    if (typeof (target.prototype as { handle?: unknown }).handle !== "function") {
      throw new TypeError(`Controller '${target.name}' needs a method handle`);
    }
    controllerDeclarations.record(target, spec);
  });
}

function checkSpec(spec: ControllerSpec): void {
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
  if (!methods.includes(spec?.method)) {
    throw new TypeError(
      `Invalid HTTP method ${JSON.stringify(spec?.method)}: use one of ${methods.join(", ")}`,
    );
  }
  checkPath(spec.path, "path");
  const status = spec.response?.status;
  if (!Number.isInteger(status) || status < 200 || status > 299) {
    throw new TypeError(
      `A controller's response status must be a 2xx integer, got ${String(status)}`,
    );
  }
  const guards = spec.guards ?? [];
  if (guards.includes(Public) && guards.length > 1) {
    throw new TypeError("Public stands alone: a route with Public has no other guard");
  }
}
