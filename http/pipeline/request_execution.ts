import { type Actor, type ExecutionContext, type Session, uuidv7 } from "@kit/kernel";

/** The actor of a request no authenticator identified (or of a `Public` route, which reads none). */
export const anonymous: Actor = Object.freeze({
  id: "anonymous",
  kind: "user",
  roles: Object.freeze([]) as readonly string[],
  tenants: Object.freeze([]) as readonly string[],
  attributes: Object.freeze({}),
});

/**
 * The execution context of a request. Its correlation id is read from `x-correlation-id` (or
 * made) only when some work asks for it: most small requests never do. A class, so that the
 * lazy getter lives on the prototype instead of in a closure per request.
 */
export class RequestExecution implements ExecutionContext {
  readonly origin = "http";
  declare readonly session?: Session;
  declare readonly tenantId?: string;
  #request: Request;
  #correlationId: string | undefined;

  /** The context of the request's work: its caller, session and tenant. */
  constructor(
    request: Request,
    readonly actor: Actor,
    session: Session | undefined,
    tenantId: string | undefined,
  ) {
    this.#request = request;
    // Set only when present, as a plain context would carry them.
    if (session) (this as { session?: Session }).session = session;
    if (tenantId !== undefined) (this as { tenantId?: string }).tenantId = tenantId;
  }

  /** The request's `x-correlation-id` if a plain id of at most 128 characters, else a new one. */
  get correlationId(): string {
    if (this.#correlationId === undefined) {
      const header = this.#request.headers.get("x-correlation-id");
      this.#correlationId = header !== null && /^[\w.:-]{1,128}$/.test(header) ? header : uuidv7();
    }
    return this.#correlationId;
  }
}
