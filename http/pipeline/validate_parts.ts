/**
 * The steps of the parts (the spec's 2): every declared part against its schema, all issues in
 * one 422 problem. Text no store keeps (NUL, lone surrogates) is refused before a schema sees it;
 * only a part whose raw text could hold such a character is scanned. Internal to the pipeline.
 *
 * @module
 */
import type { Schema, SchemaIssue, SchemaResult } from "../schema/schema.ts";
import { problemResponse } from "./answer.ts";
import { pointer, problem, type ProblemIssue } from "./problem.ts";
import { type BodyResult, readJsonBodyInto } from "./read_body.ts";
import { headerRecord, parseQuery } from "./request_parts.ts";
import type { RouteRequest } from "./route_request.ts";
import { collectUnstorable } from "./unstorable_text.ts";

/**
 * The path parameters: refused before their schema sees them when a segment is not valid
 * percent-encoded UTF-8, or (when unstorable text is refused) holds text no store keeps.
 */
export function validateParams(at: RouteRequest): Promise<undefined> | undefined {
  if (at.undecodable !== undefined) {
    for (const name of at.undecodable) {
      issuesOf(at).push({
        pointer: pointer("params", [name]),
        detail: "The path segment is not valid percent-encoded UTF-8",
        code: "invalid_encoding",
      });
    }
    return undefined;
  }
  if (
    at.pipeline.refuseUnstorableText && at.path.includes("%") &&
    collectUnstorable(at.params, "params", issuesOf(at))
  ) return undefined;
  const schema = at.route.parts.params;
  return schema === undefined ? undefined : validate(at, "params", schema, at.params);
}

/** The query string, parsed as `URLSearchParams` does. */
export function validateQuery(at: RouteRequest): Promise<undefined> | undefined {
  const query = at.query;
  const record = parseQuery(query);
  if (
    at.pipeline.refuseUnstorableText && query.includes("%") &&
    collectUnstorable(record, "query", issuesOf(at))
  ) return undefined;
  return validate(at, "query", at.route.parts.query!, record);
}

/** The headers, only those the schema reads when it says which. */
export function validateHeaders(at: RouteRequest): Promise<undefined> | undefined {
  const schema = at.route.parts.headers!;
  return validate(at, "headers", schema, headerRecord(at.request.headers, schema.readsOnly));
}

/** The JSON body, read within the pipeline's limit and deadline (else its 4xx problem). */
export function validateBody(
  at: RouteRequest,
): Response | undefined | Promise<Response | undefined> {
  const { pipeline } = at;
  // Validated in the read's own continuation: no second promise chained to it.
  return readJsonBodyInto(
    at.request,
    pipeline.bodyLimit,
    at.path,
    pipeline.bodyTimeoutMs,
    validateRead,
    at,
  );
}

/** The body read, validated (or its 4xx problem answered). */
export function validateRead(
  at: RouteRequest,
  body: BodyResult,
): Response | undefined | Promise<undefined> {
  if (!body.ok) return problemResponse(body.problem, at.identified);
  if (
    at.pipeline.refuseUnstorableText && body.escaped &&
    collectUnstorable(body.value, "body", issuesOf(at))
  ) return undefined;
  return validate(at, "body", at.route.parts.body!, body.value);
}

/** The 422 of a request whose parts are invalid: every issue in one problem. */
export function refuseInvalidParts(at: RouteRequest): Response | undefined {
  const issues = at.issues;
  if (issues === undefined || issues.length === 0) return undefined;
  return problemResponse(
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

function validate(
  at: RouteRequest,
  part: string,
  schema: Schema<unknown>,
  value: unknown,
): Promise<undefined> | undefined {
  const result = schema.validate(value);
  if (result instanceof Promise) return result.then((settled) => collect(at, part, settled));
  return collect(at, part, result);
}

function collect(at: RouteRequest, part: string, result: SchemaResult<unknown>): undefined {
  if (result.ok) {
    (at.validated ??= {})[part] = result.value;
    return undefined;
  }
  const issues = issuesOf(at);
  for (const issue of result.issues as readonly SchemaIssue[]) {
    issues.push({
      pointer: pointer(part, issue.path),
      detail: issue.message,
      ...(issue.code === undefined ? {} : { code: issue.code }),
    });
  }
  return undefined;
}

function issuesOf(at: RouteRequest): ProblemIssue[] {
  return at.issues ??= [];
}
