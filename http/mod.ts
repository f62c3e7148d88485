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
 * Beside it: `@kit/http/types` (the option, result and record types these functions name, for code
 * that writes them out) and `@kit/http/testing`.
 *
 * @module
 */
export { auditGuardRefusals, AuditTrail } from "./audit/audit_guard_refusals.ts";
export { InvalidTokenError } from "./auth/invalid_token_error.ts";
export { jwtAuthenticator } from "./auth/jwt_authenticator.ts";
export { UndeclaredErrorCode, type UndeclaredErrors } from "./contract/refusal_status.ts";
export {
  Authenticated,
  HasRole,
  HasScope,
  Public,
  TenantMember,
} from "./declaration/built_in_guards.ts";
export {
  Controller,
  controllerRoute,
  type RequestOf,
  type ResponseOf,
} from "./declaration/controller.ts";
export { defineRoute, type FunctionRoute } from "./declaration/define_route.ts";
export { Guard, type GuardRequest } from "./declaration/guard.ts";
export type { HttpRequest } from "./declaration/http_request.ts";
export { RequestMapper, Serializer } from "./declaration/mapper_serializer.ts";
export { resolveGroup, RouteGroup } from "./declaration/route_group.ts";
export { apiDocsPolicy, type SwaggerUiAssets } from "./openapi/contract_routes.ts";
export type { Authenticator, Caller } from "./pipeline/authenticator.ts";
export type { GuardRefusal } from "./pipeline/handle_request.ts";
export { type HttpApi, httpPlugin, type HttpPluginOptions } from "./pipeline/http_plugin.ts";
export { pointer, problem } from "./pipeline/problem.ts";
export { acceptedSchema } from "./schema/accepted.ts";
export { classSchema } from "./schema/class_schema.ts";
export { withFieldAccess } from "./schema/field_access.ts";
export { customSchema, type Infer, type Schema } from "./schema/schema.ts";
export { standardSchema } from "./schema/standard_schema.ts";
export { zodSchema } from "./schema/zod_schema.ts";
