import { UnauthorizedError } from "@kit/kernel";

/**
 * Refuses a bearer token that was presented and failed a check (RFC 6750 `invalid_token`): HTTP
 * 401, code `UNAUTHORIZED`, its message the problem's `detail` ("The token has expired"). The
 * pipeline answers it with the challenge `WWW-Authenticate: Bearer error="invalid_token",
 * error_description="<message>"`; any other 401 carries a plain `Bearer` challenge.
 *
 * @example Refuse a token in a project's own authenticator
 * ```ts
 * import { InvalidTokenError } from "@kit/http";
 * const error = new InvalidTokenError("The token has been revoked");
 * error.challenge; // 'Bearer error="invalid_token", error_description="The token has been revoked"'
 * ```
 */
export class InvalidTokenError extends UnauthorizedError {
  /** Builds the refusal; the message says what was wrong, in sentence case. */
  constructor(message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(message, details);
    this.name = "InvalidTokenError";
  }

  /** The `WWW-Authenticate` challenge of the answer (RFC 6750 §3). */
  get challenge(): string {
    // error_description allows %x20-21 / %x23-5B / %x5D-7E: no quote, backslash or non-ASCII.
    const description = this.message.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "?");
    return `Bearer error="invalid_token", error_description="${description}"`;
  }
}
