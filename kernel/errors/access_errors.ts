import { ConceptError } from "./concept_error.ts";

/** Refuses a caller that is not identified: HTTP 401, code `UNAUTHORIZED`. */
export class UnauthorizedError extends ConceptError {
  /** Builds the refusal, with an optional message and details. */
  constructor(
    message = "Authentication is required",
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super("unauthorized", "UNAUTHORIZED", message, details);
    this.name = "UnauthorizedError";
  }
}

/** Refuses an identified caller that may not do this: HTTP 403, code `FORBIDDEN`. */
export class ForbiddenError extends ConceptError {
  /** Builds the refusal, with an optional message and details. */
  constructor(
    message = "The caller may not do this",
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super("forbidden", "FORBIDDEN", message, details);
    this.name = "ForbiddenError";
  }
}
