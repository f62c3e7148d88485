import { Validator } from "@cfworker/json-schema";

/** An OpenAPI 3.1 document, as `application.http.openapi()` answers it. */
export type OpenApiDocument = Readonly<Record<string, unknown>>;

/** What {@linkcode contractValidator} and {@linkcode validatingFetch} are told. */
export interface ResponseValidatorOptions {
  /**
   * Requests whose answers are not checked (paths the document does not describe on purpose:
   * the document itself, the docs page). `OPTIONS` and `HEAD` are never checked.
   */
  readonly skip?: (request: Request) => boolean;
}

/** An answer that breaks the document: what was asked, what was answered, and every reason. */
export class ContractViolation extends Error {
  /** The request, `METHOD /path`. */
  readonly request: string;
  /** The status answered. */
  readonly status: number;
  /** What is wrong, one line each. */
  readonly violations: readonly string[];

  /** Builds the error. */
  constructor(request: string, status: number, violations: readonly string[]) {
    super(
      `${request} answered ${status}, which breaks the OpenAPI document: ${violations.join("; ")}`,
    );
    this.name = "ContractViolation";
    this.request = request;
    this.status = status;
    this.violations = violations;
  }
}

/** Checks answers against an OpenAPI document. */
export interface ContractValidator {
  /**
   * What is wrong with an answer to a request (nothing: an empty list): an operation the document
   * does not describe, a status it does not declare for the operation, a media type or a body
   * it does not declare for that status, a problem whose code is not listed for that status or
   * whose `status` is not the answer's. Reads a clone of the response.
   */
  check(request: Request, response: Response): Promise<string[]>;
}

interface Operation {
  readonly responses?: Record<string, ResponseObject>;
}

interface ResponseObject {
  readonly content?: Record<string, { readonly schema?: unknown }>;
}

interface PathMatcher {
  readonly template: string;
  readonly pattern: RegExp;
  readonly operations: Record<string, Operation>;
}

/**
 * A validator of answers against an OpenAPI 3.1 document: every answer an application gives in a
 * test is held to its own contract, so that a route answering an undeclared status, another
 * body or an unlisted code fails the test.
 *
 * @param document The document (or a function answering it, read on first use).
 * @param options What to skip.
 * @returns The validator.
 *
 * @example
 * ```ts ignore
 * const validator = contractValidator(application.http.openapi());
 * const problems = await validator.check(request, await application.http.fetch(request));
 * ```
 */
export function contractValidator(
  document: OpenApiDocument | (() => OpenApiDocument),
  options: ResponseValidatorOptions = {},
): ContractValidator {
  let matchers: PathMatcher[] | undefined;
  const validators = new Map<unknown, Validator>();
  let resolved: OpenApiDocument | undefined;
  const doc = () => resolved ??= typeof document === "function" ? document() : document;
  const schemaValidator = (schema: unknown): Validator => {
    let validator = validators.get(schema);
    if (validator === undefined) {
      validator = new Validator(dereference(doc(), schema) as object, "2020-12", false);
      validators.set(schema, validator);
    }
    return validator;
  };
  return {
    async check(request: Request, response: Response): Promise<string[]> {
      if (request.method === "OPTIONS" || request.method === "HEAD") return [];
      if (options.skip?.(request)) return [];
      matchers ??= pathMatchers(doc());
      const path = new URL(request.url).pathname;
      const status = response.status;
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim()
        .toLowerCase();
      const text = await response.clone().text();
      const matcher = matchers.find((m) => m.pattern.test(path));
      const operation = matcher?.operations[request.method.toLowerCase()];
      if (matcher === undefined || operation === undefined) {
        const own = matcher === undefined ? "NOT_FOUND" : "METHOD_NOT_ALLOWED";
        const ownStatus = matcher === undefined ? 404 : 405;
        if (status === ownStatus && type === "application/problem+json") {
          return codeOf(text) === own ? [] : [`${status} with code ${codeOf(text)}, not ${own}`];
        }
        return [
          matcher === undefined
            ? `the document describes no path ${path}`
            : `the document describes no ${request.method} ${matcher.template}`,
        ];
      }
      const where = `${request.method.toUpperCase()} ${matcher.template}`;
      const responses = operation.responses ?? {};
      const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ??
        responses.default;
      if (declared === undefined) {
        return [
          `status ${status} is not declared for ${where} (declared: ${
            Object.keys(responses).join(", ")
          })${problemNote(text, type)}`,
        ];
      }
      const content = declared.content;
      if (content === undefined || Object.keys(content).length === 0) {
        return text.length === 0
          ? []
          : [`${where} declares no body for ${status}, but ${text.length} bytes were answered`];
      }
      const media = content[type];
      if (media === undefined) {
        return [
          `${where} answers ${status} in ${Object.keys(content).join(", ")}, not '${type}'`,
        ];
      }
      if (!isJson(type) || media.schema === undefined) return [];
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return [`the ${status} body of ${where} is not JSON`];
      }
      const found: string[] = [];
      const result = schemaValidator(media.schema).validate(body);
      if (!result.valid) {
        const leaves = result.errors.filter((e) =>
          !/^(allOf|anyOf|oneOf|\$ref|properties|items)$/.test(e.keyword)
        );
        for (const error of (leaves.length > 0 ? leaves : result.errors).slice(0, 5)) {
          found.push(
            `the ${status} body of ${where} breaks its schema at ${error.instanceLocation}: ${error.error}`,
          );
        }
      }
      if (type === "application/problem+json") {
        const problem = body as { status?: unknown; code?: unknown };
        if (problem.status !== status) {
          found.push(
            `the problem's status ${String(problem.status)} is not the answer's ${status}`,
          );
        }
        const codes = listedCodes(dereference(doc(), media.schema));
        if (codes !== undefined && !codes.includes(String(problem.code))) {
          found.push(
            `code ${String(problem.code)} is not listed for ${status} of ${where} (listed: ${
              codes.join(", ")
            })`,
          );
        }
      }
      return found;
    },
  };
}

/**
 * Wraps an application's `fetch` so that every answer is checked against the document: an answer
 * that breaks it rejects with a {@linkcode ContractViolation} (or goes to `onViolation`), so that
 * the test meets it. The answer is handed back unread.
 *
 * @param fetch The application's `fetch` (`application.http.fetch`), or any `fetch`.
 * @param document The document the answers must keep (or a function answering it).
 * @param options What to skip; `onViolation` to collect instead of reject.
 * @returns The checking `fetch`.
 *
 * @example
 * ```ts ignore
 * const fetch = validatingFetch(application.http.fetch, () => application.http.openapi());
 * const response = await fetch(new Request("http://api.test/people/me"));
 * ```
 */
export function validatingFetch(
  fetch: (request: Request) => Response | Promise<Response>,
  document: OpenApiDocument | (() => OpenApiDocument),
  options: ResponseValidatorOptions & {
    readonly onViolation?: (violation: ContractViolation) => void;
  } = {},
): (request: Request) => Promise<Response> {
  const validator = contractValidator(document, options);
  return async function checkedFetch(request: Request): Promise<Response> {
    const method = request.method;
    const url = request.url;
    const response = await fetch(request);
    const violations = await validator.check(new Request(url, { method }), response);
    if (violations.length > 0) {
      const violation = new ContractViolation(
        `${method} ${new URL(url).pathname}`,
        response.status,
        violations,
      );
      if (options.onViolation === undefined) throw violation;
      options.onViolation(violation);
    }
    return response;
  };
}

function pathMatchers(document: OpenApiDocument): PathMatcher[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.keys(paths)
    // Static segments first: `/people/me` before `/people/{id}`.
    .sort((a, b) => (a.split("{").length - b.split("{").length) || a.localeCompare(b))
    .map((template) => ({
      template,
      pattern: new RegExp(
        "^" + template.split(/\{[^}]+\}/).map(escape).join("[^/]+") + "/?$",
      ),
      operations: paths[template]!,
    }));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A schema with every `$ref` into the document replaced by what it names. */
function dereference(document: OpenApiDocument, schema: unknown, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => dereference(document, item, seen));
  if (typeof schema !== "object" || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/") && !seen.includes(ref)) {
    let target: unknown = document;
    for (const part of ref.slice(2).split("/")) {
      target = (target as Record<string, unknown> | undefined)?.[
        part.replaceAll("~1", "/").replaceAll("~0", "~")
      ];
    }
    return dereference(document, target, [...seen, ref]);
  }
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, dereference(document, value, seen)]),
  );
}

/** The codes a problem schema lists (`allOf: [Problem, { properties: { code: { enum } } }]`). */
function listedCodes(schema: unknown): string[] | undefined {
  const parts = (schema as { allOf?: unknown[] }).allOf ?? [schema];
  for (const part of parts) {
    const codes = (part as { properties?: { code?: { enum?: unknown } } })?.properties?.code?.enum;
    if (Array.isArray(codes)) return codes.map(String);
  }
  return undefined;
}

function codeOf(text: string): string | undefined {
  try {
    return String((JSON.parse(text) as { code?: unknown }).code);
  } catch {
    return undefined;
  }
}

function problemNote(text: string, type: string): string {
  if (type !== "application/problem+json") return "";
  const code = codeOf(text);
  return code === undefined ? "" : ` (code ${code})`;
}

function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}
