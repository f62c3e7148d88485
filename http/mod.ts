/**
 * The presentation layer of kit: route groups, controllers, guards, request mappers,
 * serializers, function routes, schemas, the request pipeline, RFC 9457 problems and the
 * OpenAPI document, on Web-standard `Request`/`Response`.
 *
 * Safe by default (each an option of `httpPlugin`, see `HttpPluginOptions`): a request runs for
 * the tenant it names (checked) or the caller's only tenant, else for none; text no store keeps
 * (NUL, lone surrogates) answers 422; a body must arrive within 30 s (408); every answer carries
 * `X-Content-Type-Options: nosniff`, an answer to an identified caller `Cache-Control: no-store`,
 * every 401 a `WWW-Authenticate: Bearer` challenge; no other origin is allowed until `cors` says
 * which. `jwtAuthenticator` requires `exp` and refuses `iat`/`nbf` in the future.
 *
 * The contract: every error code has one status, declared once (`defineErrorCodes` in the
 * kernel; kit's own codes have theirs), and a route's document lists every status it can answer,
 * each code under its status: its own, its groups' and guards' codes, and the pipeline's by what
 * the route does — 422 `VALIDATION_FAILED` where a part is validated (or a path parameter
 * decoded); 400 `MALFORMED_JSON`, 408, 413 and 415 where a body is read; 406 where `produces`
 * negotiates; 401 where the authenticators run (not on a `Public` route); 400 `INVALID_TENANT`
 * and 403 where a tenant can be named (with the default `tenantOf`, a path's `:tenantId`; with a
 * project's, every route); and where a use case runs (a controller given its bus, a function
 * route) 403 (its permission), 400 `TENANT_REQUIRED` (its work on tenant data for no tenant), 422
 * `INVALID_INPUT`, 503 `SERVICE_UNAVAILABLE`, and for a write 409 `CONCURRENT_UPDATE`.
 * `@kit/http/testing` holds every answer of a test to that document (`validatingFetch`).
 *
 * @module
 */
export {
  customSchema,
  type Infer,
  type JsonSchema,
  type Schema,
  type SchemaIssue,
  type SchemaResult,
} from "./schema/schema.ts";
export * from "./schema/zod_schema.ts";
export * from "./schema/standard_schema.ts";
export * from "./schema/accepted.ts";
export {
  Guard,
  type GuardClass,
  type GuardDocuments,
  type GuardLike,
  type GuardRequest,
} from "./declaration/guard.ts";
export * from "./declaration/built_in_guards.ts";
export {
  type ResolvedGroup,
  resolveGroup,
  RouteGroup,
  type RouteGroupOptions,
} from "./declaration/route_group.ts";
export * from "./declaration/http_request.ts";
export {
  type CachePolicy,
  Controller,
  type ControllerClass,
  type ControllerSpec,
  type DeclaredRequest,
  type DeclaredResponse,
  type HttpMethod,
  type IdempotencyOptions,
} from "./declaration/controller.ts";
export { RequestMapper, Serializer } from "./declaration/mapper_serializer.ts";
export * from "./declaration/define_route.ts";
export type { RoutePermission } from "./declaration/route_permissions.ts";
export * from "./pipeline/authenticator.ts";
export { pointer, type Problem, problem, type ProblemIssue } from "./pipeline/problem.ts";
export type { GuardRefusal } from "./pipeline/handle_request.ts";
export type { CompiledRoute, RouteParts, RouteResult } from "./pipeline/compiled_route.ts";
export * from "./pipeline/http_plugin.ts";
export { type CorsOptions } from "./cors/cors.ts";
export { type OpenApiInfo, type OpenApiServer } from "./openapi/openapi_document.ts";
export * from "./auth/jwt_authenticator.ts";
export * from "./auth/invalid_token_error.ts";
export {
  type FieldAccessRule,
  type FieldAccessSchema,
  withFieldAccess,
} from "./schema/field_access.ts";
export * from "./schema/class_schema.ts";
export * from "./audit/audit_guard_refusals.ts";
export type { DeclaredCode, RouteErrorCode } from "./contract/route_errors.ts";
export type { ContractContext } from "./contract/route_contract.ts";
export { UndeclaredErrorCode, type UndeclaredErrors } from "./contract/refusal_status.ts";
export {
  apiDocsPolicy,
  type DocsRouteOptions,
  type OpenApiRouteOptions,
  type SwaggerUiAssets,
} from "./openapi/contract_routes.ts";
