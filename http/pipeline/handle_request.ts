import {
  type Actor,
  belongsToTenant,
  type ErrorReporter,
  ForbiddenError,
  runInScope,
  type Session,
  UnauthorizedError,
} from "@kit/kernel";
import type { Guard, GuardRequest } from "../declaration/guard.ts";
import type { SchemaIssue, SchemaResult } from "../schema/schema.ts";
import { cachedResponse, errorResponse, problemAnswer, respond } from "./answer.ts";
import type { Caller } from "./authenticator.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import type { Cors } from "./cors.ts";
import { pointer, type Problem, problem, type ProblemIssue, problemResponse } from "./problem.ts";
import { negotiate } from "./negotiate.ts";
import { readJsonBody } from "./read_body.ts";
import { headerRecord, lazyHeaders, parseQuery } from "./request_parts.ts";
import { RequestExecution } from "./request_execution.ts";
import { tenantIdFault, tenantOfWork } from "./request_tenant.ts";
import type { Router } from "./router.ts";
import { collectUnstorable } from "./unstorable_text.ts";

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

/** What the pipeline needs, compiled once (see `HttpPluginOptions` for each). */
export interface Pipeline {
  readonly router: Router<CompiledRoute>;
  readonly errorReporter: ErrorReporter;
  /** The status of each code: the kernel's (`kernelStatusByCode`), the project's over them. */
  readonly statusByCode: Readonly<Record<string, number>>;
  /** What a refusal of a code its route does not declare does (`refuse`: 500; `report`). */
  readonly undeclaredErrors: "refuse" | "report";
  readonly bodyLimit: number;
  /** How long a body may take to arrive, in milliseconds (`Infinity`: no limit). */
  readonly bodyTimeoutMs: number;
  /** Whether text with a NUL character or a lone surrogate is refused (422). */
  readonly refuseUnstorableText: boolean;
  readonly tenantOf: (
    params: Readonly<Record<string, string>>,
    request: Request,
  ) => string | undefined;
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void | Promise<void>;
  /** The CORS policy; without one, no answer carries a CORS header. */
  readonly cors?: Cors;
}

const anonymous: Actor = Object.freeze({
  id: "anonymous",
  kind: "user",
  roles: Object.freeze([]) as readonly string[],
  tenants: Object.freeze([]) as readonly string[],
  attributes: Object.freeze({}),
});

/**
 * Answers one request: the spec's ten steps, in order; every refusal a problem document. Every
 * answer carries `X-Content-Type-Options: nosniff`; an answer to an identified caller
 * `Cache-Control: no-store` unless its route declares a cache policy or its handler set
 * `Cache-Control`; with a CORS policy, the CORS headers of the request's origin.
 */
export function handleRequest(pipeline: Pipeline, request: Request): Response | Promise<Response> {
  const cors = pipeline.cors;
  if (cors === undefined) return answer(pipeline, request);
  const origin = request.headers.get("origin");
  if (cors.isPreflight(request)) {
    const methods = pipeline.router.methodsAt(pathOf(request.url));
    const preflight = cors.preflight(origin, methods);
    if (preflight !== undefined) return preflight;
  }
  const answered = answer(pipeline, request);
  return answered instanceof Promise
    ? answered.then((response) => cors.decorate(response, origin))
    : cors.decorate(answered, origin);
}

function pathOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("://") + 3);
  if (pathStart === -1) return "/";
  let pathEnd = url.indexOf("?", pathStart);
  if (pathEnd === -1) pathEnd = url.indexOf("#", pathStart);
  return url.slice(pathStart, pathEnd === -1 ? undefined : pathEnd);
}

function answer(pipeline: Pipeline, request: Request): Response | Promise<Response> {
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
    (route.public || route.guards.length === 0) && !path.includes("%")
  ) {
    return simpleRoute(pipeline, request, route, matched.params, path, mediaType);
  }
  return fullPipeline(pipeline, request, url, queryStart, path, matched, route, mediaType);
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
  // A Public route has no authenticator to run: no credential is read, its actor is anonymous.
  return simpleRouteAs(pipeline, request, route, params, path, mediaType, undefined, 0);
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
    const authenticators = route.authenticators;
    for (let i = from; caller === undefined && i < authenticators.length; i++) {
      const found = authenticators[i]!.authenticate(request);
      if (found instanceof Promise) {
        return found.then(
          (c) => simpleRouteAs(pipeline, request, route, params, path, mediaType, c, i + 1),
          (error) => errorResponse(pipeline, error, request, route, path, false),
        );
      }
      caller = found;
    }
    const actor = caller?.actor;
    const identified = actor !== undefined;
    if (!identified && route.requiresCaller) {
      // Refused on the full path, where the refusal is reported like a guard's.
      return fullPipeline(pipeline, request, request.url, -1, path, { params }, route, mediaType);
    }
    const named = pipeline.tenantOf(params, request);
    if (named !== undefined) {
      const fault = tenantIdFault(named);
      if (fault !== undefined) return problemAnswer(invalidTenant(fault, path), identified);
      if (identified && !belongsToTenant(actor, named)) {
        return fullPipeline(pipeline, request, request.url, -1, path, { params }, route, mediaType);
      }
    }
    const tenantId = tenantOfWork(named, actor);
    const execution = new RequestExecution(request, actor ?? anonymous, caller?.session, tenantId);
    const validated: Record<string, unknown> = { actor: execution.actor, context: execution };
    const ran = route.needsScope
      ? runInScope({ execution }, () => route.run(validated, request))
      : route.run(validated, request);
    if (ran instanceof Promise) {
      return ran.then(
        (result) => respond(result, mediaType, identified),
        (error) => errorResponse(pipeline, error, request, route, path, identified),
      );
    }
    return respond(ran, mediaType, identified);
  } catch (error) {
    return errorResponse(pipeline, error, request, route, path, caller !== undefined);
  }
}

function invalidTenant(fault: string, path: string): Problem {
  return problem(400, "INVALID_TENANT", fault, path);
}

async function fullPipeline(
  pipeline: Pipeline,
  request: Request,
  url: string,
  queryStart: number,
  path: string,
  matched: { readonly params: Record<string, string>; readonly undecodable?: readonly string[] },
  route: CompiledRoute,
  mediaType: string,
): Promise<Response> {
  let actor: Actor | undefined;
  try {
    // 1. The caller, by the authenticators of the schemes the route requires; a Public route
    // reads no credential, whatever its parts.
    let caller: Caller | undefined;
    for (const authenticator of route.authenticators) {
      const found = authenticator.authenticate(request);
      caller = found instanceof Promise ? await found : found;
      if (caller !== undefined) break;
    }
    actor = caller?.actor;
    const session: Session | undefined = caller?.session;

    // 2. Every declared part against its schema; all issues in one problem. Text no store
    // keeps (NUL, lone surrogates) is refused before a schema sees it; only a part whose raw
    // text could hold such a character is scanned.
    const parts = route.parts;
    const validated: Record<string, unknown> = {};
    const issues: ProblemIssue[] = [];
    const refuseText = pipeline.refuseUnstorableText;
    let paramsRefused = false;
    if (matched.undecodable !== undefined) {
      paramsRefused = true;
      for (const name of matched.undecodable) {
        issues.push({
          pointer: pointer("params", [name]),
          detail: "The path segment is not valid percent-encoded UTF-8",
          code: "invalid_encoding",
        });
      }
    } else if (refuseText && path.includes("%")) {
      paramsRefused = collectUnstorable(matched.params, "params", issues);
    }
    // A synchronous schema is not awaited: each await would cost a turn of the microtask queue.
    if (parts.params && !paramsRefused) {
      const result = parts.params.validate(matched.params);
      collect(issues, "params", validated, result instanceof Promise ? await result : result);
    }
    if (parts.query) {
      const query = queryStart === -1
        ? ""
        : url.slice(queryStart + 1, url.indexOf("#", queryStart) >>> 0);
      const record = parseQuery(query);
      if (!(refuseText && query.includes("%") && collectUnstorable(record, "query", issues))) {
        const result = parts.query.validate(record);
        collect(issues, "query", validated, result instanceof Promise ? await result : result);
      }
    }
    if (parts.headers) {
      const result = parts.headers.validate(
        headerRecord(request.headers, parts.headers.readsOnly),
      );
      collect(issues, "headers", validated, result instanceof Promise ? await result : result);
    }
    if (parts.body) {
      const body = await readJsonBody(
        request,
        pipeline.bodyLimit,
        path,
        pipeline.bodyTimeoutMs,
      );
      if (!body.ok) return problemAnswer(body.problem, actor !== undefined);
      if (!(refuseText && body.escaped && collectUnstorable(body.value, "body", issues))) {
        const result = parts.body.validate(body.value);
        collect(issues, "body", validated, result instanceof Promise ? await result : result);
      }
    }
    if (issues.length > 0) {
      return problemAnswer(
        problem(
          422,
          "VALIDATION_FAILED",
          `The request has ${issues.length} invalid part(s)`,
          path,
          issues,
        ),
        actor !== undefined,
      );
    }

    // 3. The execution context: the tenant the request names (checked: its shape, and that the
    // caller belongs to it), else the caller's only tenant, else none.
    const named = pipeline.tenantOf(matched.params, request);
    if (named !== undefined) {
      const fault = tenantIdFault(named);
      if (fault !== undefined) {
        return problemAnswer(invalidTenant(fault, path), actor !== undefined);
      }
    }
    const tenantId = tenantOfWork(named, actor);
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
    if (named !== undefined && actor !== undefined && !belongsToTenant(actor, named)) {
      const error = new ForbiddenError(`The caller does not belong to tenant '${named}'`);
      await refuse(pipeline, request, route, "TenantMember", actor, error);
      throw error;
    }

    // 4. Guards in order: parent group, group, controller (a Public route has none to run); a
    // route closed without a guard needs an identified caller all the same.
    if (route.requiresCaller && actor === undefined) {
      const error = new UnauthorizedError();
      await refuse(pipeline, request, route, "Authenticated", actor, error);
      throw error;
    }
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
      ? runInScope({ execution }, () => route.run(validated, request))
      : route.run(validated, request);
    const result = ran instanceof Promise ? await ran : ran;
    if (route.cache !== undefined) {
      if (result.status === 200 && (request.method === "GET" || request.method === "HEAD")) {
        return await cachedResponse(
          route.cache,
          result,
          mediaType,
          matched.params,
          request.headers.get("if-none-match"),
        );
      }
      // A route that declares a cache policy decides its caching: no no-store added.
      return respond(result, mediaType, false);
    }
    return respond(result, mediaType, actor !== undefined);
  } catch (error) {
    return errorResponse(pipeline, error, request, route, path, actor !== undefined);
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
