/**
 * What the end-to-end specs share: a gate on `DATABASE_URL` (skipped with one line without it,
 * failing under CI), and a small client speaking to the running application over HTTP.
 */
import {
  type RunningTestPlatform,
  startTestPlatform,
} from "../../src/platform/platform-test.module.ts";
import type { TokenClaims } from "../../src/platform/auth/tokens.ts";

const missing = !Deno.env.get("DATABASE_URL");
if (missing && Deno.env.get("CI") !== "true") {
  console.log("skipped: the example's end-to-end specs need DATABASE_URL");
}

/** Declares an end-to-end test against a fresh, running application. */
export function e2e(
  name: string,
  fn: (app: RunningTestPlatform & { client: Client }) => Promise<void>,
  options: { now?: string } = {},
): void {
  Deno.test({
    name,
    ignore: missing && Deno.env.get("CI") !== "true",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const app = await startTestPlatform(options);
      try {
        await fn({ ...app, client: new Client(app) });
      } finally {
        await app.close();
      }
    },
  });
}

/** An answer: status, headers and the parsed JSON body (undefined when empty). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // deno-lint-ignore no-explicit-any
  readonly body: any;
}

/** The tenant every caller of the specs belongs to. */
export const practice = "practice-1";

/** The callers of the specs. */
export const callers = {
  practitioner: { sub: "dr-who", roles: ["practitioner"], tenants: [practice] },
  receptionist: { sub: "desk-1", roles: ["receptionist"], tenants: [practice] },
  patient: { sub: "pat-1", roles: ["patient"], tenants: [practice] },
  otherPatient: { sub: "pat-2", roles: ["patient"], tenants: [practice] },
  visitor: { sub: "vis-1", roles: ["visitor"], tenants: [practice] },
} satisfies Record<string, TokenClaims>;

/** Sends requests to the running application as a caller (none: anonymous). */
export class Client {
  constructor(private readonly app: RunningTestPlatform) {}

  /** The application's address. */
  get base(): string {
    return this.app.url;
  }

  /** Sends one request; `as` signs a fresh token at the application's clock. */
  async send(
    method: string,
    path: string,
    options: { as?: TokenClaims; body?: unknown; tenant?: string; rawBody?: string } = {},
  ): Promise<Answer> {
    const headers = new Headers({ "x-tenant-id": options.tenant ?? practice });
    if (options.as) headers.set("authorization", `Bearer ${await this.app.token(options.as)}`);
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers.set("content-type", "application/json");
    const response = await fetch(this.app.url + path, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text.length > 0 ? JSON.parse(text) : undefined,
    };
  }
}
