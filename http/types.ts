/**
 * The types `@kit/http`'s functions name in their signatures (options, results, records), for
 * code that writes them out; `@kit/http`'s functions infer them.
 *
 * @module
 */
export type { AuditEntry } from "./audit/audit_guard_refusals.ts";
export type { JwtAuthenticatorOptions } from "./auth/jwt_authenticator.ts";
export type { ContractContext } from "./contract/route_contract.ts";
export type { DeclaredCode, RouteErrorCode } from "./contract/route_errors.ts";
export type {
  CachePolicy,
  ControllerClass,
  ControllerSpec,
  HttpMethod,
  IdempotencyOptions,
  LocationFits,
} from "./declaration/controller.ts";
export type { FunctionRouteInput, FunctionRouteSpec } from "./declaration/define_route.ts";
export type { GuardClass, GuardDocuments, GuardLike } from "./declaration/guard.ts";
export type { RequestParts } from "./declaration/http_request.ts";
export type { ResolvedGroup, RouteGroupOptions } from "./declaration/route_group.ts";
export type { RoutePermission } from "./declaration/route_permissions.ts";
export type { DocsRouteOptions, OpenApiRouteOptions } from "./openapi/contract_routes.ts";
export type { OpenApiInfo, OpenApiServer } from "./openapi/openapi_document.ts";
export type { CompiledRoute, RouteParts, RouteResult } from "./pipeline/compiled_route.ts";
export type { CorsOptions } from "./cors/cors.ts";
export type { Problem, ProblemIssue } from "./pipeline/problem.ts";
export type { Accepted } from "./schema/accepted.ts";
export type { SchemaClass } from "./schema/class_schema.ts";
export type { FieldAccessRule, FieldAccessSchema } from "./schema/field_access.ts";
export type { JsonSchema, SchemaIssue, SchemaResult } from "./schema/schema.ts";
