/**
 * The presentation layer of kit: route groups, controllers, guards, request mappers,
 * serializers, function routes, schemas, the request pipeline, RFC 9457 problems and the
 * OpenAPI document, on Web-standard `Request`/`Response`.
 *
 * @module
 */
export * from "./schema/schema.ts";
export * from "./schema/zod_schema.ts";
export * from "./schema/standard_schema.ts";
export * from "./schema/accepted.ts";
export * from "./declaration/guard.ts";
export * from "./declaration/built_in_guards.ts";
export * from "./declaration/route_group.ts";
export * from "./declaration/http_request.ts";
export * from "./declaration/controller.ts";
export * from "./declaration/mapper_serializer.ts";
export * from "./declaration/define_route.ts";
export * from "./pipeline/authenticator.ts";
export * from "./pipeline/problem.ts";
export * from "./pipeline/compiled_route.ts";
export * from "./pipeline/handle_request.ts";
export * from "./pipeline/http_plugin.ts";
export * from "./openapi/openapi_document.ts";
export * from "./auth/jwt_authenticator.ts";
export * from "./schema/field_access.ts";
export * from "./schema/class_schema.ts";
export * from "./audit/audit_guard_refusals.ts";
