/**
 * What the end-to-end specs share: a gate on `DATABASE_URL` (skipped with one line without it,
 * failing under CI), and a small client speaking to the running application over HTTP, which
 * holds every answer to the application's own OpenAPI document (`validatingFetch`): an answer the
 * document does not declare (status, media type, body, the problem's code for its status) fails
 * the spec that met it.
 */
import assert from "node:assert/strict";
import { type OpenApiDocument, validatingFetch } from "@kit/http/testing";
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

/** An answer: status, headers and the parsed JSON body (undefined when empty or not JSON). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // deno-lint-ignore no-explicit-any
  readonly body: any;
  /** The body as received. */
  readonly text: string;
}

/** What {@linkcode Client.send} sends besides the method and path. */
export interface SendOptions {
  /** The caller (a token signed at the application's clock); none: anonymous. */
  readonly as?: TokenClaims;
  /** A body, sent as JSON. */
  readonly body?: unknown;
  /** A body sent as it is, as JSON. */
  readonly rawBody?: string;
  /** The `x-tenant-id` header (default: `practice-1`); `null` sends none. */
  readonly tenant?: string | null;
  /** Further request headers. */
  readonly headers?: Readonly<Record<string, string>>;
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
  readonly #fetch: (request: Request) => Promise<Response>;

  /**
   * A client of the running application; every answer is checked against `document` (default:
   * the application's own OpenAPI document).
   */
  constructor(
    private readonly app: RunningTestPlatform,
    document: () => OpenApiDocument = () => app.application.http.openapi(),
  ) {
    // The jobs dashboard's page and assets answer HTML, CSS and script, which a function route's
    // document does not describe (it documents JSON bodies): their answers are not checked.
    this.#fetch = validatingFetch((request) => fetch(request), document, {
      skip: (request) => /^\/ops\/jobs(\/assets\/.*)?$/.test(new URL(request.url).pathname),
    });
  }

  /** Sends a request as it is, its answer checked against the document. */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return this.#fetch(new Request(this.app.url + path, init));
  }

  /** The application's address. */
  get base(): string {
    return this.app.url;
  }

  /** Sends one request; `as` signs a fresh token at the application's clock. */
  async send(method: string, path: string, options: SendOptions = {}): Promise<Answer> {
    const headers = new Headers(options.headers);
    const tenant = options.tenant === undefined ? practice : options.tenant;
    if (tenant !== null) headers.set("x-tenant-id", tenant);
    if (options.as) headers.set("authorization", `Bearer ${await this.app.token(options.as)}`);
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers.set("content-type", "application/json");
    const response = await this.fetch(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
}

/**
 * Every route of the running application, as `METHOD /path/{param}`, read from its OpenAPI
 * document: a spec that must cover every route compares its own list with this one, so a new
 * route cannot be forgotten.
 */
export function documentedRoutes(app: RunningTestPlatform): string[] {
  const paths = app.application.http.openapi().paths as Record<string, Record<string, unknown>>;
  const methods = ["get", "put", "post", "delete", "patch"];
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.keys(operations).filter((m) => methods.includes(m)).map((m) =>
      `${m.toUpperCase()} ${path}`
    )
  ).sort();
}

/** Asserts an answer is a 4xx problem document (RFC 9457); answers its code. */
export function assertProblem(answer: Answer, context: string): string {
  const where = `${context}: ${answer.status} ${answer.text.slice(0, 300)}`;
  assert.ok(answer.status >= 400 && answer.status < 500, `a 4xx answer, ${where}`);
  assert.equal(answer.headers.get("content-type"), "application/problem+json", where);
  assert.equal(answer.body?.status, answer.status, where);
  assert.equal(typeof answer.body?.code, "string", where);
  return answer.body.code;
}

/**
 * Opens a calendar as the practitioner, with a `checkup` type of `minutes` and open every day,
 * all day: the starting point of the specs that book.
 */
export async function openAllWeekCalendar(
  client: Client,
  calendarId: string,
  minutes = 15,
): Promise<void> {
  const as = callers.practitioner;
  assert.equal((await client.send("PUT", `/calendars/${calendarId}`, { as })).status, 201);
  assert.equal(
    (await client.send("PUT", `/calendars/${calendarId}/appointment-types/checkup`, {
      as,
      body: { name: "Check-up", durationMinutes: minutes },
    })).status,
    200,
  );
  const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    opens: "00:00",
    closes: "24:00",
  }));
  assert.equal(
    (await client.send("PUT", `/calendars/${calendarId}/opening-hours`, { as, body: { windows } }))
      .status,
    204,
  );
}
