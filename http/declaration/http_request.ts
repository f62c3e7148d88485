import type { Actor, ExecutionContext } from "@kit/kernel";

/** The parts of a request a route may declare. */
export interface RequestParts {
  /** Path parameters. */
  readonly params?: unknown;
  /** The query string. */
  readonly query?: unknown;
  /** Headers. */
  readonly headers?: unknown;
  /** The body. */
  readonly body?: unknown;
}

/**
 * What a controller's `handle` receives: the validated parts it names, typed as their schemas'
 * outputs, plus the actor.
 *
 * @example
 * ```ts ignore
 * async handle(request: HttpRequest<{ params: { appointmentId: string }; body: { reason: string } }>) {
 *   return await this.commands.execute(this.mapper.map(request));
 * }
 * ```
 */
export type HttpRequest<P extends RequestParts = Record<never, never>> =
  & {
    /** The caller (an anonymous actor on a `Public` route without credentials). */
    readonly actor: Actor;
    /** The execution context of the request. */
    readonly context: ExecutionContext;
  }
  & { readonly [K in keyof P]: P[K] };
