/**
 * The fast path of HS256 verification: a token whose header is a plain `{"alg":"HS256"}` (any
 * `typ` or `kid`, no `crit`, no `b64`), whose signature is the key's HMAC-SHA256 (synchronous,
 * see `hmacSha256`) and whose claims pass every check jose would make with the same options
 * (issuer, audience, `exp` a number and not past, `nbf` and `iat` numbers, `nbf` not in the
 * future, each with the tolerance) is accepted without WebCrypto. Anything else is left to jose,
 * which accepts or refuses it with its reason: the fast path only ever accepts what jose would.
 * What either accepts then meets the authenticator's own claim checks (`token_claims.ts`: the
 * maximum lifetime, finite time claims, well-formed `sub`, `roles`, `tenants`). Internal to the
 * JWT authenticator.
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

/** The value of each base64url character (`A-Z a-z 0-9 - _`), -1 for any other. */
const sextets = new Int8Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("").forEach(
  (char, value) => (sextets[char.charCodeAt(0)] = value),
);

/**
 * Decodes the base64url text `source[start, end)` into `into` (from 0), as `atob` would after
 * mapping `-_` to `+/`: padding-free, the trailing bits ignored. Answers the byte count, or -1
 * when the text is not base64url or does not fit.
 */
function decodeBase64Url(source: string, start: number, end: number, into: Uint8Array): number {
  const length = end - start;
  if (length % 4 === 1) return -1;
  const size = (length * 3) >> 2;
  if (size > into.length) return -1;
  let bits = 0;
  let held = 0;
  let out = 0;
  for (let i = start; i < end; i++) {
    const code = source.charCodeAt(i);
    const value = code < 128 ? sextets[code]! : -1;
    if (value < 0) return -1;
    bits = (bits << 6) | value;
    held += 6;
    if (held >= 8) {
      held -= 8;
      into[out++] = (bits >> held) & 0xff;
    }
  }
  return out;
}

/** A JSON object from the base64url text `source[start, end)`, or undefined. */
function objectOf(
  source: string,
  start: number,
  end: number,
  scratch: Uint8Array,
  views: (Uint8Array | undefined)[],
): Record<string, unknown> | undefined {
  const own = end - start > scratch.length * 4 / 3;
  const bytes = own ? new Uint8Array(end - start) : scratch;
  const size = decodeBase64Url(source, start, end, bytes);
  if (size < 0) return undefined;
  // A view of the scratch buffer per size, made once: tokens of one issuer have few sizes.
  const view = own ? bytes.subarray(0, size) : (views[size] ??= scratch.subarray(0, size));
  try {
    const value = JSON.parse(text.decode(view));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `aud` is a list naming one of `audiences` (as jose reads an audience list). */
function namesOneOf(aud: unknown, audiences: readonly string[]): boolean {
  if (!Array.isArray(aud)) return false;
  for (let i = 0; i < aud.length; i++) if (audiences.includes(aud[i])) return true;
  return false;
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
  // Scratch buffers, reused: the signature, the signed bytes, a payload's bytes.
  const signature = new Uint8Array(33);
  let signed = new Uint8Array(512);
  const payload = new Uint8Array(2048);
  const views: (Uint8Array | undefined)[] = [];
  return (token, now) => {
    const first = token.indexOf(".");
    const last = token.lastIndexOf(".");
    if (first <= 0 || last === first) return undefined;
    const headerPart = token.slice(0, first);
    let plain = headers.get(headerPart);
    if (plain === undefined) {
      plain = isPlainHs256(objectOf(headerPart, 0, headerPart.length, payload, views));
      if (headers.size < 64) headers.set(headerPart, plain);
    }
    if (!plain) return undefined;
    if (decodeBase64Url(token, last + 1, token.length, signature) !== 32) return undefined;
    if (signed.length < last) signed = new Uint8Array(last * 2);
    for (let i = 0; i < last; i++) {
      const code = token.charCodeAt(i);
      // jose signs the UTF-8 of the text: anything but ASCII is left to it.
      if (code > 127) return undefined;
      signed[i] = code;
    }
    if (!hmac.verifyPrefix(signed, last, signature)) return undefined;
    const claims = objectOf(token, first + 1, last, payload, views);
    if (claims === undefined) return undefined;
    const { iss, aud, exp, nbf, iat } = claims;
    if (typeof iss !== "string" || !issuers.includes(iss)) return undefined;
    if (!(typeof aud === "string" ? audiences.includes(aud) : namesOneOf(aud, audiences))) {
      return undefined;
    }
    if (exp === undefined ? options.requireExpiry : typeof exp !== "number") return undefined;
    if (typeof exp === "number" && exp <= now - tolerance) return undefined;
    if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + tolerance)) return undefined;
    if (iat !== undefined && typeof iat !== "number") return undefined;
    return claims as JWTPayload;
  };
}
