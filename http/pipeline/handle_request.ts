import {
  type Actor,
  type ErrorReporter,
  ForbiddenError,
  runInScope,
  UnauthorizedError,
} from "@kit/kernel";
import { belongsToTenant } from "@kit/kernel/internal";
import type { Guard, GuardRequest } from "../declaration/guard.ts";
import { type HttpMetrics, unmatchedRoute } from "../observability/http_metrics.ts";
import type { SchemaIssue, SchemaResult } from "../schema/schema.ts";
import { cachedResponse, errorResponse, problemAnswer, respond } from "./answer.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import type { Cors } from "./cors.ts";
import { pointer, type Problem, problem, type ProblemIssue, problemResponse } from "./problem.ts";
import { negotiate } from "./negotiate.ts";
import { readJsonBody } from "./read_body.ts";
import { headerRecord, lazyHeaders, parseQuery } from "./request_parts.ts";
import { RequestExecution } from "./request_execution.ts";
import { RouteRequest } from "./route_request.ts";
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
  /**
   * How a request names its tenant, said in a `TENANT_REQUIRED` answer ("send the 'x-tenant-id'
   * header ..."); absent when a project's own `tenantOf` reads it.
   */
  readonly tenantHint?: string;
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void | Promise<void>;
  /** The CORS policy; without one, no answer carries a CORS header. */
  readonly cors?: Cors;
  /** The request duration histogram; absent (no SDK), nothing is measured. */
  readonly metrics?: HttpMetrics;
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
  const start = pipeline.metrics === undefined ? 0 : pipeline.metrics.now();
  const cors = pipeline.cors;
  if (cors === undefined) return answer(pipeline, request, start);
  const origin = request.headers.get("origin");
  if (cors.isPreflight(request)) {
    const at = pipeline.router.match("", pathOf(request.url));
    const allowed = at === undefined || !("allowed" in at) ? undefined : at;
    const preflight = cors.preflight(origin, allowed?.allowed);
    if (preflight !== undefined) {
      if (pipeline.metrics === undefined) return preflight;
      const route = allowed?.template ?? unmatchedRoute;
      return pipeline.metrics.series(route, request.method).answered(start, preflight);
    }
  }
  const answered = answer(pipeline, request, start);
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

/**
 * The route of the request and the media type of its answer (else 404, 405, 406), then its
 * steps; the answer is measured from `start` when the pipeline has metrics.
 */
function answer(pipeline: Pipeline, request: Request, start: number): Response | Promise<Response> {
  const url = request.url;
  const pathStart = url.indexOf("/", url.indexOf("://") + 3);
  let pathEnd = url.indexOf("?", pathStart);
  const queryStart = pathEnd;
  if (pathEnd === -1) pathEnd = url.indexOf("#", pathStart);
  const path = pathStart === -1 ? "/" : url.slice(pathStart, pathEnd === -1 ? undefined : pathEnd);
  const matched = pipeline.router.match(request.method, path);
  const metrics = pipeline.metrics;
  if (matched === undefined) {
    const response = problemResponse(
      problem(404, "NOT_FOUND", `No route answers ${request.method} ${path}`, path),
    );
    if (metrics === undefined) return response;
    return metrics.series(unmatchedRoute, request.method).answered(start, response);
  }
  if ("allowed" in matched) {
    const response = problemResponse(
      problem(405, "METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}`, path),
      { allow: matched.allowed.join(", ") },
    );
    if (metrics === undefined) return response;
    return metrics.series(matched.template, request.method).answered(start, response);
  }
  const route = matched.value;
  const mediaType = route.negotiates
    ? negotiate(request.headers.get("accept"), route.produces)
    : route.produces[0]!;
  let answered: Response | Promise<Response>;
  if (mediaType === undefined) {
    answered = problemResponse(
      problem(406, "NOT_ACCEPTABLE", `This route answers ${route.produces.join(", ")} only`, path),
    );
  } else {
    const at = new RouteRequest(pipeline, request, path, queryStart, matched, mediaType);
    answered = isSimple(route, path) ? answerSimply(at, 0) : answerFully(at);
  }
  if (metrics === undefined) return answered;
  return metrics.ofRoute(route, request.method).measure(start, answered);
}

/** Whether a route has nothing to validate, no guard to run and no cache policy to apply. */
function isSimple(route: CompiledRoute, path: string): boolean {
  const parts = route.parts;
  return parts.params === undefined && parts.query === undefined &&
    parts.headers === undefined && parts.body === undefined && route.cache === undefined &&
    (route.public || route.guards.length === 0) && !path.includes("%");
}

/**
 * A simple route answers without an async function around it when its authenticators and
 * handler are synchronous (the common small route). After an asynchronous authenticator it is
 * called again, with the authenticators from `from` on. A Public route has no authenticator to
 * run: no credential is read, its actor is anonymous.
 */
function answerSimply(at: RouteRequest, from: number): Response | Promise<Response> {
  try {
    const authenticators = at.route.authenticators;
    for (let i = from; at.caller === undefined && i < authenticators.length; i++) {
      const found = authenticators[i]!.authenticate(at.request);
      if (found instanceof Promise) {
        return found.then(
          (caller) => {
            at.caller = caller;
            return answerSimply(at, i + 1);
          },
          (error) => errorResponse(error, at),
        );
      }
      at.caller = found;
    }
    return runSimply(at);
  } catch (error) {
    return errorResponse(error, at);
  }
}

/**
 * The simple route, its caller known: the tenant, then the handler. A refusal (no caller on a
 * closed route, a tenant the caller does not belong to) is left to the full pipeline, where it
 * is reported like a guard's.
 */
function runSimply(at: RouteRequest): Response | Promise<Response> {
  const { route, request } = at;
  const actor = at.caller?.actor;
  if (actor === undefined && route.requiresCaller) return answerFully(at);
  const named = at.pipeline.tenantOf(at.params, request);
  if (named !== undefined) {
    const fault = tenantIdFault(named);
    if (fault !== undefined) return problemAnswer(invalidTenant(at, fault), at.identified);
    if (actor !== undefined && !belongsToTenant(actor, named)) return answerFully(at);
  }
  const execution = new RequestExecution(
    request,
    actor ?? anonymous,
    at.caller?.session,
    tenantOfWork(named, actor),
  );
  const validated: Record<string, unknown> = { actor: execution.actor, context: execution };
  const ran = route.needsScope
    ? runInScope({ execution }, () => route.run(validated, request))
    : route.run(validated, request);
  if (ran instanceof Promise) {
    return ran.then(
      (result) => respond(result, at.mediaType, at.identified),
      (error) => errorResponse(error, at),
    );
  }
  return respond(ran, at.mediaType, at.identified);
}

function invalidTenant(at: RouteRequest, fault: string): Problem {
  return problem(400, "INVALID_TENANT", fault, at.path);
}

/**
 * The spec's steps for a route with parts to validate, guards to run or a cache policy. The
 * steps run in one async function: a synchronous schema, guard or handler is not awaited, as
 * each await (and each async call) costs a turn of the microtask queue.
 */
async function answerFully(at: RouteRequest): Promise<Response> {
  const { pipeline, request, route } = at;
  // A simple route that falls back here has its authenticators run again, from the first.
  at.caller = undefined;
  try {
    // 1. The caller, by the authenticators of the schemes the route requires; a Public route
    // reads no credential, whatever its parts.
    for (const authenticator of route.authenticators) {
      const found = authenticator.authenticate(request);
      at.caller = found instanceof Promise ? await found : found;
      if (at.caller !== undefined) break;
    }
    const actor = at.caller?.actor;

    // 2. Every declared part against its schema; all issues in one problem. Text no store
    // keeps (NUL, lone surrogates) is refused before a schema sees it; only a part whose raw
    // text could hold such a character is scanned.
    const parts = route.parts;
    const validated: Record<string, unknown> = {};
    const issues: ProblemIssue[] = [];
    const refuseText = pipeline.refuseUnstorableText;
    const refused = paramsRefused(at, issues);
    if (parts.params && !refused) {
      const result = parts.params.validate(at.params);
      collect(issues, "params", validated, result instanceof Promise ? await result : result);
    }
    if (parts.query) {
      const query = at.query;
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
        at.path,
        pipeline.bodyTimeoutMs,
      );
      if (!body.ok) return problemAnswer(body.problem, at.identified);
      if (!(refuseText && body.escaped && collectUnstorable(body.value, "body", issues))) {
        const result = parts.body.validate(body.value);
        collect(issues, "body", validated, result instanceof Promise ? await result : result);
      }
    }
    if (issues.length > 0) return validationFailed(at, issues);

    // 3. The execution context: the tenant the request names (checked: its shape, and that the
    // caller belongs to it), else the caller's only tenant, else none.
    const named = pipeline.tenantOf(at.params, request);
    if (named !== undefined) {
      const fault = tenantIdFault(named);
      if (fault !== undefined) return problemAnswer(invalidTenant(at, fault), at.identified);
    }
    const tenantId = tenantOfWork(named, actor);
    const session = at.caller?.session;
    const execution = new RequestExecution(request, actor ?? anonymous, session, tenantId);
    let headerView: Readonly<Record<string, string>> | undefined;
    const guardRequest: GuardRequest = {
      actor,
      session,
      get headers() {
        return headerView ??= lazyHeaders(request.headers);
      },
      params: at.params,
      tenantId,
    };
    if (named !== undefined && actor !== undefined && !belongsToTenant(actor, named)) {
      const error = new ForbiddenError(`The caller does not belong to tenant '${named}'`);
      await refuse(at, "TenantMember", error);
      throw error;
    }

    // 4. Guards in order: parent group, group, controller (a Public route has none to run); a
    // route closed without a guard needs an identified caller all the same.
    if (route.requiresCaller && actor === undefined) {
      const error = new UnauthorizedError();
      await refuse(at, "Authenticated", error);
      throw error;
    }
    for (let i = 0; !route.public && i < route.guards.length; i++) {
      const guard: Guard = route.guards[i]!();
      try {
        const checked = guard.check(guardRequest);
        if (checked instanceof Promise) await checked;
      } catch (error) {
        if (error instanceof Error) await refuse(at, route.guardNames[i]!, error);
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
    if (route.cache !== undefined) return await cachedResponse(at, route.cache, result);
    return respond(result, at.mediaType, at.identified);
  } catch (error) {
    return errorResponse(error, at);
  }
}

/**
 * Whether the path parameters are refused before their schema sees them: a segment that is not
 * valid percent-encoded UTF-8, or (when unstorable text is refused) text no store keeps. Their
 * issues go to `issues`.
 */
function paramsRefused(at: RouteRequest, issues: ProblemIssue[]): boolean {
  if (at.undecodable !== undefined) {
    for (const name of at.undecodable) {
      issues.push({
        pointer: pointer("params", [name]),
        detail: "The path segment is not valid percent-encoded UTF-8",
        code: "invalid_encoding",
      });
    }
    return true;
  }
  return at.pipeline.refuseUnstorableText && at.path.includes("%") &&
    collectUnstorable(at.params, "params", issues);
}

/** The 422 of a request whose parts are invalid: every issue in one problem. */
function validationFailed(at: RouteRequest, issues: readonly ProblemIssue[]): Response {
  return problemAnswer(
    problem(
      422,
      "VALIDATION_FAILED",
      `The request has ${issues.length} invalid part(s)`,
      at.path,
      issues,
    ),
    at.identified,
  );
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

/** Tells `onGuardRefusal`, if any, that `guard` refused the request; a failure of it is reported. */
async function refuse(at: RouteRequest, guard: string, error: Error): Promise<void> {
  const { pipeline, route } = at;
  if (pipeline.onGuardRefusal === undefined) return;
  try {
    await pipeline.onGuardRefusal({
      request: at.request,
      route: `${route.method} ${route.path}`,
      guard,
      actor: at.caller?.actor,
      error,
    });
  } catch (failure) {
    pipeline.errorReporter.report(failure, {
      origin: "http",
      details: { stage: "onGuardRefusal" },
    });
  }
}
