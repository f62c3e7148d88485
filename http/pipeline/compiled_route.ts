import type { CachePolicy, HttpMethod } from "../declaration/controller.ts";
import type { RouteErrorCode } from "../contract/route_errors.ts";
import type { Guard } from "../declaration/guard.ts";
import type { Schema } from "../schema/schema.ts";
import type { Authenticator } from "./authenticator.ts";

/** The parts a route validates. */
export interface RouteParts {
  /** The path parameters' schema. */
  readonly params?: Schema<unknown>;
  /** The query string's schema. */
  readonly query?: Schema<unknown>;
  /** The request headers' schema. */
  readonly headers?: Schema<unknown>;
  /** The request body's schema. */
  readonly body?: Schema<unknown>;
}

/** What a function route's handler answers. */
export interface RouteResult {
  /** The status. */
  readonly status: number;
  /** A JSON value, text, or bytes. */
  readonly body?: unknown;
  /** Response headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A route compiled once at start-up: everything a request needs, resolved. */
export interface CompiledRoute {
  /** Its HTTP method. */
  readonly method: HttpMethod;
  /** Its path, with `:name` parameters, the groups' prefixes joined. */
  readonly path: string;
  /** Its operation id in the OpenAPI document. */
  readonly operationId: string;
  /** Its summary in the document. */
  readonly summary?: string;
  /** Its tags in the document. */
  readonly tags: readonly string[];
  /**
   * The names of the permissions it requires, sorted (its own and its guards'), for the
   * document's `x-permissions`; absent when none is known.
   */
  readonly permissions?: readonly string[];
  /** Its guards, outermost group's first, each built per request. */
  readonly guards: readonly (() => Guard)[];
  /** Its guards' names, in the same order (for the document and the audit). */
  readonly guardNames: readonly string[];
  /**
   * Every error code the route may answer, with its one status, sorted by code: its own, its
   * groups' and guards', and those the pipeline answers by itself on such a route. The pipeline
   * answers a refusal with the status found here, and the document lists exactly these.
   */
  readonly errors: ReadonlyMap<string, RouteErrorCode>;
  /** The security schemes it requires (none: open to anyone). */
  readonly security: readonly string[];
  /**
   * The authenticators run for it, in order: none when it is open to anyone, those of the schemes
   * it requires otherwise (see {@linkcode Authenticator.scheme}).
   */
  readonly authenticators: readonly Authenticator[];
  /** The request parts it validates. */
  readonly parts: RouteParts;
  /** Its answers by status: description, body schema, and whether it sets `Location`. */
  readonly responses: ReadonlyMap<
    number,
    { description: string; body?: Schema<unknown>; location?: boolean }
  >;
  /** The media types it answers in, preferred first. */
  readonly produces: readonly string[];
  /** Whether the route declared `produces`, so that `Accept` is negotiated (else JSON is answered). */
  readonly negotiates: boolean;
  /** Its cache policy (ETag, `Cache-Control`), if any. */
  readonly cache?: CachePolicy;
  /** The route honours `Idempotency-Key` (see the controller's `idempotent`). */
  readonly idempotency?: { readonly required?: boolean };
  /** Whether it is `Public`: no credential is read. */
  readonly public: boolean;
  /**
   * Whether it needs an identified caller though no guard says so: a controller neither `Public`
   * nor guarded (by its group or itself) is closed, as its document says (401 without a caller).
   */
  readonly requiresCaller: boolean;
  /**
   * Whether `run` needs the ambient work scope: true when the handler can reach a bus. A
   * controller given no bus cannot, and skips entering it (a measurable share of a small request).
   */
  readonly needsScope: boolean;
  /**
   * Runs the route's handler with the validated request (and the raw one, for what only it
   * carries: the `Idempotency-Key`); answers status, body and headers.
   */
  readonly run: (
    request: Record<string, unknown>,
    raw: Request,
  ) => RouteResult | Promise<RouteResult>;
  /**
   * A controller's handler alone (what `run` does is `shape` over it), for a route whose `run`
   * is nothing more and whose shaping runs no code of the project's (so needs no work scope):
   * the pipeline then answers a promised body in one continuation, not two.
   */
  readonly handle?: (request: Record<string, unknown>) => unknown;
  /** What `handle` answered, as the route's result (with `handle`). */
  readonly shape?: (body: unknown, request: Record<string, unknown>) => RouteResult;
}
