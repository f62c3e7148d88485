/**
 * The refusal of a token jose did not verify, in kit's words: one sentence that says what was
 * wrong, never jose's codes or messages. Internal to the JWT authenticator.
 *
 * @module
 */
import { errors } from "jose";
import { InvalidTokenError } from "./invalid_token_error.ts";

const claimNames: Readonly<Record<string, string>> = {
  exp: "expiry (exp)",
  nbf: "start of validity (nbf)",
  iat: "issue time (iat)",
  iss: "issuer (iss)",
  aud: "audience (aud)",
  sub: "subject (sub)",
  typ: "type (typ)",
};

/** The refusal of a token whose verification threw `error`. */
export function tokenRefusal(error: unknown): InvalidTokenError {
  return new InvalidTokenError(detailOf(error));
}

function detailOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return claimDetail(error);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return "The token's signature does not verify";
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "The token's algorithm is not accepted";
  if (error instanceof errors.JWTInvalid) return "The token's claims cannot be read";
  if (error instanceof errors.JWSInvalid) return "The token cannot be read";
  if (error instanceof errors.JOSENotSupported) {
    return "The token uses a feature that is not supported";
  }
  if (error instanceof errors.JWKSNoMatchingKey) return "The token's key is not known";
  return "The token cannot be verified";
}

function claimDetail(error: InstanceType<typeof errors.JWTClaimValidationFailed>): string {
  const { claim, reason } = error;
  if (claim === "exp" && reason === "missing") return "The token has no expiry (exp)";
  if (claim === "nbf" && reason === "check_failed") return "The token is not valid yet (nbf)";
  if (claim === "iat" && reason === "check_failed") {
    return "The token was issued in the future (iat)";
  }
  if (claim === "iss") {
    return reason === "missing"
      ? "The token has no issuer (iss)"
      : "The token's issuer is not accepted";
  }
  if (claim === "aud") {
    return reason === "missing"
      ? "The token has no audience (aud)"
      : "The token's audience is not accepted";
  }
  const name = Object.hasOwn(claimNames, claim) ? claimNames[claim]! : "claims";
  if (reason === "missing") return `The token has no ${name}`;
  if (reason === "invalid") return `The token's ${name} is not a number`;
  return `The token's ${name} is not accepted`;
}
