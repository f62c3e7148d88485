import {
  type Actor,
  belongsToTenant,
  type ErrorReporter,
  type ExecutionContext,
  ForbiddenError,
  isRefusal,
  runInScope,
  type Session,
  uuidv7,
} from "@kit/kernel";
import type { Guard, GuardRequest } from "../declaration/guard.ts";
import type { SchemaIssue, SchemaResult } from "../schema/schema.ts";
import type { Authenticator, Caller } from "./authenticator.ts";
import type { CompiledRoute, RouteResult } from "./compiled_route.ts";
import { pointer, problem, type ProblemIssue, problemResponse } from "./problem.ts";
import { cacheHeaders } from "./cache.ts";
import { negotiate } from "./negotiate.ts";
import { readJsonBody } from "./read_body.ts";
import { headerRecord, parseQuery } from "./request_parts.ts";
import type { Router } from "./router.ts";

/** A guard refusal, as given to `onGuardRefusal`. */
export interface GuardRefusal {
  /** The refused request. */
  readonly request: Request;
  /** The route, `METHOD /path`. */
  readonly route: string;
  /** The guard that refused (or `TenantMember` for a tenant the caller does not belong to). */
  readonly guard: string;
  /** The identified caller, if any. */
  readonly actor: Actor | undefined;
  /** The refusal. */
  readonly error: Error;
}

/** What the pipeline needs, compiled once. */
export interface Pipeline {
  readonly router: Router<CompiledRoute>;
  readonly authenticators: readonly Authenticator[];
  readonly errorReporter: ErrorReporter;
  readonly statusByCode: Readonly<Record<string, number>>;
  readonly bodyLimit: number;
  readonly tenantOf: (
    params: Readonly<Record<string, string>>,
    request: Request,
  ) => string | undefined;
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void | Promise<void>;
}

const anonymous: Actor = Object.freeze({
  id: "anonymous",
  kind: "user",
  roles: Object.freeze([]) as readonly string[],
  tenants: Object.freeze([]) as readonly string[],
  attributes: Object.freeze({}),
});

const kindStatus: Record<string, number> = {
  refusal: 422,
  conflict: 409,
  "not-found": 404,
  unauthorized: 401,
  forbidden: 403,
};

/** Answers one request: the spec's ten steps, in order; every refusal a problem document. */
export function handleRequest(pipeline: Pipeline, request: Request): Response | Promise<Response> {
  const url = request.url;
  const pathStart = url.indexOf("/", url.indexOf("://") + 3);
  let pathEnd = url.indexOf("?", pathStart);
  const queryStart = pathEnd;
  if (pathEnd === -1) pathEnd = url.indexOf("#", pathStart);
  const path = pathStart === -1 ? "/" : url.slice(pathStart, pathEnd === -1 ? undefined : pathEnd);
  const matched = pipeline.router.match(request.method, path);
  if (matched === undefined) {
    return problemResponse(
      problem(404, "NOT_FOUND", `No route answers ${request.method} ${path}`, path),
    );
  }
  if ("allowed" in matched) {
    return problemResponse(
      problem(405, "METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}`, path),
      { allow: matched.allowed.join(", ") },
    );
  }
  const route = matched.value;
  const mediaType = route.negotiates
    ? negotiate(request.headers.get("accept"), route.produces)
    : route.produces[0]!;
  if (mediaType === undefined) {
    return problemResponse(
      problem(406, "NOT_ACCEPTABLE", `This route answers ${route.produces.join(", ")} only`, path),
    );
  }
  const parts = route.parts;
  if (
    parts.params === undefined && parts.query === undefined && parts.headers === undefined &&
    parts.body === undefined && route.cache === undefined &&
    (route.public || route.guards.length === 0)
  ) {
    return simpleRoute(pipeline, request, route, matched.params, path, mediaType);
  }
  return fullPipeline(pipeline, request, url, queryStart, path, matched.params, route, mediaType);
}

/**
 * A route with nothing to validate and no guard to run answers without an async function
 * around it when its authenticators and handler are synchronous (the common small route).
 */
function simpleRoute(
  pipeline: Pipeline,
  request: Request,
  route: CompiledRoute,
  params: Record<string, string>,
  path: string,
  mediaType: string,
): Response | Promise<Response> {
  // A Public route does not resolve the caller: no credential is read, its actor is anonymous.
  const from = route.public ? pipeline.authenticators.length : 0;
  return simpleRouteAs(pipeline, request, route, params, path, mediaType, undefined, from);
}

/**
 * The simple route, the caller resolved by the authenticators from `from` on: a function called
 * again after an asynchronous authenticator, not a closure made per request.
 */
function simpleRouteAs(
  pipeline: Pipeline,
  request: Request,
  route: CompiledRoute,
  params: Record<string, string>,
  path: string,
  mediaType: string,
  caller: Caller | undefined,
  from: number,
): Response | Promise<Response> {
  try {
    const authenticators = pipeline.authenticators;
    for (let i = from; caller === undefined && i < authenticators.length; i++) {
      const found = authenticators[i]!.authenticate(request);
      if (found instanceof Promise) {
        return found.then(
          (c) => simpleRouteAs(pipeline, request, route, params, path, mediaType, c, i + 1),
          (error) => errorResponse(pipeline, error, request, route, path),
        );
      }
      caller = found;
    }
    const actor = caller?.actor;
    const tenantId = pipeline.tenantOf(params, request);
    if (tenantId !== undefined && actor !== undefined && !belongsToTenant(actor, tenantId)) {
      return fullPipeline(pipeline, request, request.url, -1, path, params, route, mediaType);
    }
    const execution = new RequestExecution(request, actor ?? anonymous, caller?.session, tenantId);
    const validated: Record<string, unknown> = { actor: execution.actor, context: execution };
    const ran = route.needsScope
      ? runInScope({ execution }, () => route.run(validated))
      : route.run(validated);
    if (ran instanceof Promise) {
      return ran.then(
        (result) => respond(result, mediaType),
        (error) => errorResponse(pipeline, error, request, route, path),
      );
    }
    return respond(ran, mediaType);
  } catch (error) {
    return errorResponse(pipeline, error, request, route, path);
  }
}

/**
 * The execution context of a request. Its correlation id is read from `x-correlation-id` (or
 * made) only when some work asks for it: most small requests never do. A class, so that the
 * lazy getter lives on the prototype instead of in a closure per request.
 */
class RequestExecution implements ExecutionContext {
  readonly origin = "http";
  declare readonly session?: Session;
  declare readonly tenantId?: string;
  #request: Request;
  #correlationId: string | undefined;

  constructor(
    request: Request,
    readonly actor: Actor,
    session: Session | undefined,
    tenantId: string | undefined,
  ) {
    this.#request = request;
    // Set only when present, as a plain context would carry them.
    if (session) (this as { session?: Session }).session = session;
    if (tenantId !== undefined) (this as { tenantId?: string }).tenantId = tenantId;
  }

  get correlationId(): string {
    if (this.#correlationId === undefined) {
      const header = this.#request.headers.get("x-correlation-id");
      this.#correlationId = header !== null && /^[\w.:-]{1,128}$/.test(header) ? header : uuidv7();
    }
    return this.#correlationId;
  }
}

async function fullPipeline(
  pipeline: Pipeline,
  request: Request,
  url: string,
  queryStart: number,
  path: string,
  params: Record<string, string>,
  route: CompiledRoute,
  mediaType: string,
): Promise<Response> {
  const matched = { params };
  let actor: Actor | undefined;
  try {
    // 1. The caller.
    let caller: Caller | undefined;
    for (const authenticator of pipeline.authenticators) {
      const found = authenticator.authenticate(request);
      caller = found instanceof Promise ? await found : found;
      if (caller !== undefined) break;
    }
    actor = caller?.actor;
    const session: Session | undefined = caller?.session;

    // 2. Every declared part against its schema; all issues in one problem.
    const parts = route.parts;
    const validated: Record<string, unknown> = {};
    const issues: ProblemIssue[] = [];
    // A synchronous schema is not awaited: each await would cost a turn of the microtask queue.
    if (parts.params) {
      const result = parts.params.validate(matched.params);
      collect(issues, "params", validated, result instanceof Promise ? await result : result);
    }
    if (parts.query) {
      const query = queryStart === -1
        ? ""
        : url.slice(queryStart + 1, url.indexOf("#", queryStart) >>> 0);
      const result = parts.query.validate(parseQuery(query));
      collect(issues, "query", validated, result instanceof Promise ? await result : result);
    }
    if (parts.headers) {
      const result = parts.headers.validate(
        headerRecord(request.headers, parts.headers.readsOnly),
      );
      collect(issues, "headers", validated, result instanceof Promise ? await result : result);
    }
    if (parts.body) {
      const body = await readJsonBody(request, pipeline.bodyLimit, path);
      if (!body.ok) return problemResponse(body.problem);
      const result = parts.body.validate(body.value);
      collect(issues, "body", validated, result instanceof Promise ? await result : result);
    }
    if (issues.length > 0) {
      return problemResponse(
        problem(
          422,
          "VALIDATION_FAILED",
          `The request has ${issues.length} invalid part(s)`,
          path,
          issues,
        ),
      );
    }

    // 3. The execution context; a named tenant the caller does not belong to is refused.
    const tenantId = pipeline.tenantOf(matched.params, request);
    const execution = new RequestExecution(request, actor ?? anonymous, session, tenantId);
    let headerView: Readonly<Record<string, string>> | undefined;
    const guardRequest: GuardRequest = {
      actor,
      session,
      get headers() {
        return headerView ??= lazyHeaders(request.headers);
      },
      params: matched.params,
      tenantId,
    };
    if (tenantId !== undefined && actor !== undefined && !belongsToTenant(actor, tenantId)) {
      const error = new ForbiddenError(`The caller does not belong to tenant '${tenantId}'`);
      await refuse(pipeline, request, route, "TenantMember", actor, error);
      throw error;
    }

    // 4. Guards in order: parent group, group, controller (a Public route has none to run).
    for (let i = 0; !route.public && i < route.guards.length; i++) {
      const guard: Guard = route.guards[i]!();
      try {
        const checked = guard.check(guardRequest);
        if (checked instanceof Promise) await checked;
      } catch (error) {
        if (error instanceof Error) {
          await refuse(pipeline, request, route, route.guardNames[i]!, actor, error);
        }
        throw error;
      }
    }

    // 5-10. handle, mapper, bus, handler, serializer, declared status and body.
    validated.actor = execution.actor;
    validated.context = execution;
    const ran = route.needsScope
      ? runInScope({ execution }, () => route.run(validated))
      : route.run(validated);
    const result = ran instanceof Promise ? await ran : ran;
    if (
      route.cache !== undefined && result.status === 200 &&
      (request.method === "GET" || request.method === "HEAD")
    ) {
      return await cachedResponse(
        route,
        result,
        mediaType,
        matched.params,
        request.headers.get("if-none-match"),
      );
    }
    return respond(result, mediaType);
  } catch (error) {
    return errorResponse(pipeline, error, request, route, path);
  }
}

function collect(
  issues: ProblemIssue[],
  part: string,
  into: Record<string, unknown>,
  result: SchemaResult<unknown>,
): void {
  if (result.ok) {
    into[part] = result.value;
    return;
  }
  for (const issue of result.issues as readonly SchemaIssue[]) {
    issues.push({
      pointer: pointer(part, issue.path),
      detail: issue.message,
      ...(issue.code === undefined ? {} : { code: issue.code }),
    });
  }
}

function lazyHeaders(headers: Headers): Readonly<Record<string, string>> {
  return new Proxy({}, {
    get: (_, name) => (typeof name === "string" ? headers.get(name) ?? undefined : undefined),
    has: (_, name) => typeof name === "string" && headers.has(name),
    ownKeys: () => [...headers.keys()],
    getOwnPropertyDescriptor: (_, name) =>
      typeof name === "string" && headers.has(name)
        ? { value: headers.get(name), enumerable: true, configurable: true }
        : undefined,
  });
}

async function refuse(
  pipeline: Pipeline,
  request: Request,
  route: CompiledRoute,
  guard: string,
  actor: Actor | undefined,
  error: Error,
): Promise<void> {
  if (pipeline.onGuardRefusal === undefined) return;
  try {
    await pipeline.onGuardRefusal({
      request,
      route: `${route.method} ${route.path}`,
      guard,
      actor,
      error,
    });
  } catch (failure) {
    pipeline.errorReporter.report(failure, {
      origin: "http",
      details: { stage: "onGuardRefusal" },
    });
  }
}

function respond(result: RouteResult, mediaType: string): Response {
  const { status, body, headers } = result;
  if (body === undefined || status === 204 || status === 304) {
    return new Response(null, { status, ...(headers ? { headers } : {}) });
  }
  if (typeof body === "string") {
    const type = isJson(mediaType) ? "text/plain; charset=utf-8" : mediaType;
    return new Response(body, { status, headers: { "content-type": type, ...headers } });
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof ReadableStream) {
    return new Response(body as BodyInit, {
      status,
      headers: { "content-type": "application/octet-stream", ...headers },
    });
  }
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": isJson(mediaType) ? mediaType : "application/json", ...headers },
  });
}

function isJson(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

async function cachedResponse(
  route: CompiledRoute,
  result: RouteResult,
  mediaType: string,
  params: Readonly<Record<string, string>>,
  ifNoneMatch: string | null,
): Promise<Response> {
  const text = typeof result.body === "string" ? result.body : JSON.stringify(result.body ?? null);
  const cache = await cacheHeaders(route.cache!, text, params, ifNoneMatch);
  if (cache.notModified) return new Response(null, { status: 304, headers: cache.headers });
  const type = typeof result.body === "string" && isJson(mediaType)
    ? "text/plain; charset=utf-8"
    : mediaType;
  return new Response(text, {
    status: result.status,
    headers: { "content-type": type, ...cache.headers, ...result.headers },
  });
}

function errorResponse(
  pipeline: Pipeline,
  error: unknown,
  request: Request,
  route: CompiledRoute,
  path: string,
): Response {
  if (isRefusal(error)) {
    const status = pipeline.statusByCode[error.code] ?? kindStatus[error.kind] ?? 422;
    return problemResponse(problem(status, error.code, error.message, path));
  }
  pipeline.errorReporter.report(error, {
    origin: "http",
    details: { route: `${route.method} ${route.path}`, method: request.method, path },
  });
  return problemResponse(problem(500, "INTERNAL_ERROR", "An unexpected error occurred", path));
}
