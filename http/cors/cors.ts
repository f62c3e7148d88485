/**
 * Cross-origin resource sharing, as an explicit option of the pipeline: without it no answer
 * carries a CORS header, so a browser lets no other origin read any answer.
 *
 * @module
 */

/**
 * The CORS policy of `httpPlugin({ cors })`. Without it nothing is allowed: no answer carries
 * CORS headers and a preflight `OPTIONS` is answered as any request of a method the path does
 * not declare.
 */
export interface CorsOptions {
  /**
   * The origins whose pages may call the API, each exactly `scheme://host[:port]`
   * (`https://app.example`), or `["*"]` for every origin (never with `credentials`). A typo such
   * as a trailing slash is refused at start-up.
   */
  readonly origins: readonly string[];
  /** The methods a preflight allows (default: the methods the requested path answers). */
  readonly methods?: readonly string[];
  /** The request headers a preflight allows (default `authorization`, `content-type`). */
  readonly headers?: readonly string[];
  /**
   * Whether the page may send cookies or HTTP authentication (`Access-Control-Allow-Credentials:
   * true`; default `false`). A bearer token in `Authorization` needs only `headers`.
   */
  readonly credentials?: boolean;
  /** How long a browser may keep a preflight's answer, in seconds (`Access-Control-Max-Age`). */
  readonly maxAge?: number;
  /** Answer headers the page may read besides the safelisted ones (`location`, `retry-after`). */
  readonly exposedHeaders?: readonly string[];
}

/**
 * A CORS policy checked and compiled once: what `httpPlugin({ cors })` builds from
 * {@linkcode CorsOptions} and the pipeline applies to every request.
 *
 * @example
 * ```ts
 * const cors = new Cors({ origins: ["https://app.example"], maxAge: 600 });
 * cors.preflight("https://app.example", ["GET", "POST"])?.status; // 204
 * cors.preflight("https://evil.example", ["GET", "POST"]); // undefined: answered as without CORS
 * ```
 */
export class Cors {
  readonly #origins: ReadonlySet<string>;
  readonly #any: boolean;
  readonly #methods: string | undefined;
  readonly #headers: string;
  readonly #credentials: boolean;
  readonly #maxAge: string | undefined;
  readonly #exposed: string;

  /** Checks the options; throws a `TypeError` naming what is wrong. */
  constructor(options: CorsOptions) {
    const origins = options.origins;
    if (!Array.isArray(origins) || origins.length === 0) {
      throw new TypeError("cors.origins must list at least one origin (or '*')");
    }
    for (const origin of origins) checkOrigin(origin);
    this.#any = origins.includes("*");
    if (this.#any && origins.length > 1) {
      throw new TypeError("cors.origins: '*' stands alone (it allows every origin)");
    }
    this.#credentials = options.credentials === true;
    if (this.#any && this.#credentials) {
      throw new TypeError(
        "cors: credentials cannot be allowed to every origin ('*'): list the origins",
      );
    }
    this.#origins = new Set(origins);
    this.#methods = options.methods === undefined
      ? undefined
      : tokens("methods", options.methods).join(", ");
    this.#headers = tokens("headers", options.headers ?? ["authorization", "content-type"]).join(
      ", ",
    );
    this.#exposed = tokens("exposedHeaders", options.exposedHeaders ?? []).join(", ");
    const maxAge = options.maxAge;
    if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0)) {
      throw new TypeError(`cors.maxAge must be a whole number of seconds, got ${maxAge}`);
    }
    this.#maxAge = maxAge === undefined ? undefined : String(maxAge);
  }

  /** Whether a request is a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`). */
  isPreflight(request: Request): boolean {
    return request.method === "OPTIONS" && request.headers.has("access-control-request-method");
  }

  /**
   * The answer to a preflight from an allowed origin to a path that answers `pathMethods`
   * (204 with the allow headers); `undefined` for another origin or an unknown path, which are
   * answered as without CORS.
   */
  preflight(
    origin: string | null,
    pathMethods: readonly string[] | undefined,
  ): Response | undefined {
    if (origin === null || pathMethods === undefined || !this.#allows(origin)) return undefined;
    const headers: Record<string, string> = {
      "access-control-allow-origin": this.#any ? "*" : origin,
      "access-control-allow-methods": this.#methods ?? pathMethods.join(", "),
      "x-content-type-options": "nosniff",
    };
    if (this.#headers.length > 0) headers["access-control-allow-headers"] = this.#headers;
    if (this.#credentials) headers["access-control-allow-credentials"] = "true";
    if (this.#maxAge !== undefined) headers["access-control-max-age"] = this.#maxAge;
    if (!this.#any) headers.vary = "Origin";
    return new Response(null, { status: 204, headers });
  }

  /**
   * Adds to an answer the CORS headers of the request's origin: `Access-Control-Allow-Origin`
   * for an allowed one, nothing for another; `Vary: Origin` whenever the answer depends on it.
   */
  decorate(response: Response, origin: string | null): Response {
    const headers = response.headers;
    if (!this.#any) headers.append("vary", "Origin");
    if (origin === null || !this.#allows(origin)) return response;
    headers.set("access-control-allow-origin", this.#any ? "*" : origin);
    if (this.#credentials) headers.set("access-control-allow-credentials", "true");
    if (this.#exposed.length > 0) headers.set("access-control-expose-headers", this.#exposed);
    return response;
  }

  #allows(origin: string): boolean {
    return this.#any || this.#origins.has(origin);
  }
}

function checkOrigin(origin: string): void {
  if (origin === "*") return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (
    parsed === undefined || (parsed.protocol !== "https:" && parsed.protocol !== "http:") ||
    parsed.origin !== origin
  ) {
    throw new TypeError(
      `cors.origins: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], ` +
        "lower case, no path or trailing slash)",
    );
  }
}

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function tokens(option: string, values: readonly string[]): string[] {
  for (const value of values) {
    if (typeof value !== "string" || !token.test(value)) {
      throw new TypeError(
        `cors.${option}: ${JSON.stringify(value)} is not a header or method name`,
      );
    }
  }
  return [...values];
}
