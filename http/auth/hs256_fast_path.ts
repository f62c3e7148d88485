/**
 * The fast path of HS256 verification: a token whose header is a plain `{"alg":"HS256"}` (any
 * `typ` or `kid`, no `crit`, no `b64`), whose signature is the key's HMAC-SHA256 (synchronous,
 * see `hmacSha256`) and whose claims pass every check jose would make with the same options
 * (issuer, audience, `exp` a number and not past, `nbf` and `iat` numbers, `nbf` not in the
 * future, each with the tolerance) is accepted without WebCrypto. Anything else is left to jose,
 * which accepts or refuses it with its reason: the fast path only ever accepts what jose would.
 * Internal to the JWT authenticator.
 *
 * @module
 */
import type { JWTPayload } from "jose";
import { hmacSha256 } from "./hmac_sha256.ts";

/** The checks the fast path makes, as the authenticator's options give them. */
export interface FastPathOptions {
  readonly issuer: string | readonly string[];
  readonly audience: string | readonly string[];
  readonly toleranceSeconds: number;
  readonly requireExpiry: boolean;
}

/** Verifies a token on the fast path: its claims, or undefined when jose must decide. */
export type Hs256FastPath = (token: string, nowSeconds: number) => JWTPayload | undefined;

const text = new TextDecoder();

/** The bytes of base64url text, or undefined when it is not that. */
function fromBase64Url(part: string): Uint8Array | undefined {
  if (part.length % 4 === 1 || !/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  let binary: string;
  try {
    binary = atob(part.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A JSON object from base64url text, or undefined. */
function objectOf(part: string): Record<string, unknown> | undefined {
  const bytes = fromBase64Url(part);
  if (bytes === undefined) return undefined;
  try {
    const value = JSON.parse(text.decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isPlainHs256(header: Record<string, unknown> | undefined): boolean {
  return header !== undefined && header.alg === "HS256" && !("crit" in header) &&
    !("b64" in header);
}

/** The fast path for tokens signed with `key`, checked by `options`. */
export function hs256FastPath(key: Uint8Array, options: FastPathOptions): Hs256FastPath {
  const hmac = hmacSha256(key);
  const issuers = typeof options.issuer === "string" ? [options.issuer] : [...options.issuer];
  const audiences = typeof options.audience === "string"
    ? [options.audience]
    : [...options.audience];
  const tolerance = options.toleranceSeconds;
  // Headers are few (one per issuer's settings): each is read once.
  const headers = new Map<string, boolean>();
  return (token, now) => {
    const first = token.indexOf(".");
    const last = token.lastIndexOf(".");
    if (first <= 0 || last === first) return undefined;
    const headerPart = token.slice(0, first);
    let plain = headers.get(headerPart);
    if (plain === undefined) {
      plain = isPlainHs256(objectOf(headerPart));
      if (headers.size < 64) headers.set(headerPart, plain);
    }
    if (!plain) return undefined;
    const signature = fromBase64Url(token.slice(last + 1));
    if (signature === undefined || signature.length !== 32) return undefined;
    const signed = new Uint8Array(last);
    for (let i = 0; i < last; i++) signed[i] = token.charCodeAt(i);
    if (!hmac.verify(signed, signature)) return undefined;
    const claims = objectOf(token.slice(first + 1, last));
    if (claims === undefined) return undefined;
    const { iss, aud, exp, nbf, iat } = claims;
    if (typeof iss !== "string" || !issuers.includes(iss)) return undefined;
    const named = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : undefined;
    if (named === undefined || !named.some((one) => audiences.includes(one))) return undefined;
    if (exp === undefined ? options.requireExpiry : typeof exp !== "number") return undefined;
    if (typeof exp === "number" && exp <= now - tolerance) return undefined;
    if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + tolerance)) return undefined;
    if (iat !== undefined && typeof iat !== "number") return undefined;
    return claims as JWTPayload;
  };
}
