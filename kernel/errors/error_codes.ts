import { ConceptError, type ConceptErrorKind, isRefusal } from "./concept_error.ts";

/** The HTTP status each kind of domain error answers when its code declares none. */
export const statusOfKind: Readonly<Record<ConceptErrorKind, number>> = Object.freeze({
  refusal: 422,
  conflict: 409,
  "not-found": 404,
  unauthorized: 401,
  forbidden: 403,
});

/**
 * How one error code is declared: its HTTP status, its kind, or both, and what it means. A code
 * with neither does not compile (and is refused at run time).
 */
export type ErrorCodeOptions =
  & {
    /** What the code means, for the OpenAPI document and people reading the code. */
    readonly description: string;
  }
  & (
    | {
      /** The HTTP status it answers (400-499); its kind follows (404 not-found, 409 conflict...). */
      readonly status: number;
      /** Its kind; when given with a status, they must agree. */
      readonly kind?: ConceptErrorKind;
    }
    | {
      /** Its kind: the status follows (refusal 422, conflict 409, not-found 404). */
      readonly kind: ConceptErrorKind;
      readonly status?: undefined;
    }
  );

/** One declared error code: its one status, its kind, and the factory of its error. */
export interface ErrorCode<C extends string = string> {
  /** The code (`SLOT_TAKEN`). */
  readonly code: C;
  /** The context that declares it. */
  readonly context: string;
  /** The HTTP status it answers, on every route. */
  readonly status: number;
  /** Its kind (the thrown error's `kind`). */
  readonly kind: ConceptErrorKind;
  /** What it means. */
  readonly description: string;
  /** Builds the error of this code, of the declared kind and status. */
  error(
    message: string,
    details?: Readonly<Record<string, unknown>>,
    options?: ErrorOptions,
  ): DeclaredError;
  /** Tells whether an error carries this code. */
  is(error: unknown): error is ConceptError;
}

/** The error codes of one context, by code. */
export type ErrorCodes<D> = { readonly [K in keyof D & string]: ErrorCode<K> };

/**
 * A domain error built from a declared code: a {@linkcode ConceptError} that knows its status, so
 * that the answer and the declaration cannot disagree.
 */
export class DeclaredError extends ConceptError {
  /** The HTTP status its code declares. */
  readonly status: number;
  /** The context whose code it is. */
  readonly context: string;

  /** Builds the error of a declared code (use the code's `error()`). */
  constructor(
    declared: Pick<ErrorCode, "code" | "context" | "status" | "kind">,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super(declared.kind, declared.code, message, details, options);
    this.name = "ConceptError";
    this.status = declared.status;
    this.context = declared.context;
  }
}

const statusKinds: Readonly<Record<number, ConceptErrorKind>> = {
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  409: "conflict",
};

const kinds = new Set<string>(Object.keys(statusOfKind));

/**
 * Declares a context's error codes once, each with its HTTP status (or its kind, whose status
 * follows): the routes that list a code, the pipeline that answers it and the OpenAPI document
 * all read this declaration, and each code's `error()` builds the error that is thrown, so that
 * the status answered and the status documented are one. A status without a kind gives the kind
 * (401 unauthorized, 403 forbidden, 404 not-found, 409 conflict, any other refusal); a kind
 * without a status gives the status (refusal 422, conflict 409, not-found 404).
 *
 * @param context The context's kebab-case name.
 * @param codes The codes, in upper snake case, with their status or kind and a description.
 * @returns Each code's declaration, by code.
 * @throws {TypeError} For an invalid context or code name, a code with no status and no kind, a
 * status outside 400-499, or a kind that disagrees with the status.
 *
 * @example Declare the scheduling context's codes and throw one
 * ```ts
 * import { defineErrorCodes } from "@kit/kernel";
 * const schedulingErrors = defineErrorCodes("scheduling", {
 *   SLOT_TAKEN: { status: 409, description: "The slot is booked already" },
 *   OFF_GRID: { kind: "refusal", description: "The start is not on the calendar's grid" },
 * });
 * const error = schedulingErrors.SLOT_TAKEN.error("The slot at 09:00 is booked");
 * error.kind; // "conflict"
 * schedulingErrors.OFF_GRID.status; // 422
 * ```
 */
export function defineErrorCodes<const D extends Readonly<Record<string, ErrorCodeOptions>>>(
  context: string,
  codes: D,
): ErrorCodes<D> {
  if (typeof context !== "string" || !/^[a-z][a-z0-9-]*$/.test(context)) {
    throw new TypeError(
      `defineErrorCodes() needs the context's kebab-case name, got ${JSON.stringify(context)}`,
    );
  }
  const out: Record<string, ErrorCode> = {};
  for (const code of Object.keys(codes ?? {}).sort()) {
    out[code] = declareCode(context, code, codes[code]!);
  }
  return Object.freeze(out) as ErrorCodes<D>;
}

function declareCode(context: string, code: string, options: ErrorCodeOptions): ErrorCode {
  const where = `Error code '${code}' of context '${context}'`;
  if (!/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(code)) {
    throw new TypeError(`${where} is not in upper snake case (SLOT_TAKEN)`);
  }
  const { status, kind } = (options ?? {}) as { status?: unknown; kind?: unknown };
  if (kind !== undefined && (typeof kind !== "string" || !kinds.has(kind))) {
    throw new TypeError(
      `${where} has an unknown kind ${JSON.stringify(kind)}: use ${[...kinds].join(", ")}`,
    );
  }
  if (status === undefined && kind === undefined) {
    throw new TypeError(`${where} declares no status and no kind: say which status it answers`);
  }
  if (status !== undefined && (!Number.isInteger(status) || +status! < 400 || +status! > 499)) {
    throw new TypeError(`${where} has status ${String(status)}: a domain code answers 400-499`);
  }
  const resolvedKind = (kind as ConceptErrorKind | undefined) ??
    statusKinds[status as number] ?? "refusal";
  const resolvedStatus = (status as number | undefined) ?? statusOfKind[resolvedKind];
  const fixed = statusOfKind[resolvedKind];
  if (resolvedKind !== "refusal" && resolvedKind !== "conflict" && fixed !== resolvedStatus) {
    throw new TypeError(
      `${where} is of kind ${resolvedKind}, which answers ${fixed}, but declares status ${resolvedStatus}`,
    );
  }
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new TypeError(`${where} needs a description (what it means, for the document)`);
  }
  const declared = {
    code,
    context,
    status: resolvedStatus,
    kind: resolvedKind,
    description: options.description,
  };
  return Object.freeze({
    ...declared,
    error(
      message: string,
      details: Readonly<Record<string, unknown>> = {},
      errorOptions?: ErrorOptions,
    ): DeclaredError {
      return new DeclaredError(declared, message, details, errorOptions);
    },
    is(error: unknown): error is ConceptError {
      return isRefusal(error, code);
    },
  });
}

/** Tells whether a value is one declared error code (from {@linkcode defineErrorCodes}). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "object" && value !== null &&
    typeof (value as ErrorCode).code === "string" &&
    typeof (value as ErrorCode).status === "number" &&
    typeof (value as ErrorCode).error === "function";
}
