import type { CachePolicy, HttpMethod } from "../declaration/controller.ts";
import type { Guard } from "../declaration/guard.ts";
import type { Schema } from "../schema/schema.ts";

/** The parts a route validates. */
export interface RouteParts {
  readonly params?: Schema<unknown>;
  readonly query?: Schema<unknown>;
  readonly headers?: Schema<unknown>;
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
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string;
  readonly summary?: string;
  readonly tags: readonly string[];
  readonly guards: readonly (() => Guard)[];
  readonly guardNames: readonly string[];
  readonly errors: readonly string[];
  readonly security: readonly string[];
  readonly parts: RouteParts;
  readonly responses: ReadonlyMap<number, { description: string; body?: Schema<unknown> }>;
  readonly produces: readonly string[];
  /** Whether the route declared `produces`, so that `Accept` is negotiated (else JSON is answered). */
  readonly negotiates: boolean;
  readonly cache?: CachePolicy;
  readonly public: boolean;
  /**
   * Whether `run` needs the ambient work scope: true when the handler can reach a bus. A
   * controller given no bus cannot, and skips entering it (a measurable share of a small request).
   */
  readonly needsScope: boolean;
  /** Runs the route's handler with the validated request; answers status, body and headers. */
  readonly run: (request: Record<string, unknown>) => RouteResult | Promise<RouteResult>;
}
