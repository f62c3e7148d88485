/**
 * The kinds of domain error. The HTTP layer maps each to a default status (`refusal` 422,
 * `conflict` 409, `not-found` 404, `unauthorized` 401, `forbidden` 403) unless the project maps
 * the code itself.
 */
export type ConceptErrorKind = "refusal" | "conflict" | "not-found" | "unauthorized" | "forbidden";

const brand = Symbol.for("kit.ConceptError");

/**
 * A domain error: a refusal with a stable code (`SLOT_TAKEN`), a message for people and details
 * for programs.
 *
 * @example Refuse a booking
 * ```ts
 * import { ConceptError, isRefusal } from "@kit/kernel";
 * const error = ConceptError.refusal("SLOT_TAKEN", "The slot is already booked", { slot: "09:00" });
 * isRefusal(error, "SLOT_TAKEN"); // true
 * ```
 */
export class ConceptError extends Error {
  /** The stable code of the error, in upper snake case. */
  readonly code: string;
  /** What kind of error this is; decides the default HTTP status. */
  readonly kind: ConceptErrorKind;
  /** Facts about the error, for programs (JSON). */
  readonly details: Readonly<Record<string, unknown>>;

  /** Builds a domain error; prefer the static factories. */
  constructor(
    kind: ConceptErrorKind,
    code: string,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ConceptError";
    this.kind = kind;
    this.code = code;
    this.details = details;
  }

  /** A refusal: the domain will not do what was asked (`OUTSIDE_AVAILABILITY`). */
  static refusal(
    code: string,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
  ): ConceptError {
    return new ConceptError("refusal", code, message, details);
  }

  /** A conflict with the current state (`SLOT_TAKEN` under a race). */
  static conflict(
    code: string,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
  ): ConceptError {
    return new ConceptError("conflict", code, message, details);
  }

  /** The element named does not exist (`APPOINTMENT_NOT_FOUND`). */
  static notFound(
    code: string,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
  ): ConceptError {
    return new ConceptError("not-found", code, message, details);
  }

  static {
    Object.defineProperty(this.prototype, brand, { value: true });
  }
}

/**
 * Tells whether the error is a {@linkcode ConceptError}, and, when a code is given, whether it
 * carries that code. Works across copies of the package (the class is branded).
 *
 * @example Treat an ended appointment as done
 * ```ts ignore
 * try {
 *   await commands.execute(new CancelAppointment(actor, id, reason));
 * } catch (error) {
 *   if (!isRefusal(error, "APPOINTMENT_ENDED")) throw error;
 * }
 * ```
 */
export function isRefusal(error: unknown, code?: string): error is ConceptError {
  if (typeof error !== "object" || error === null) return false;
  if ((error as Record<symbol, unknown>)[brand] !== true) return false;
  return code === undefined || (error as ConceptError).code === code;
}
