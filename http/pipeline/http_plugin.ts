// deno-lint-ignore-file no-explicit-any
import {
  type Actor,
  type AnyClass,
  type ApplicationPlugin,
  CommandBus,
  type CompositionRoot,
  describeInjectable,
  QueryBus,
} from "@kit/kernel";
import { Public } from "../declaration/built_in_guards.ts";
import { controllerDeclarations, type ControllerSpec } from "../declaration/controller.ts";
import { documentsOf, type Guard, type GuardLike, guardName } from "../declaration/guard.ts";
import {
  requestMapperDeclarations,
  serializerDeclarations,
} from "../declaration/mapper_serializer.ts";
import { joinPaths, resolveGroup } from "../declaration/route_group.ts";
import type { FunctionRoute } from "../declaration/define_route.ts";
import { openApiDocument, type OpenApiInfo } from "../openapi/openapi_document.ts";
import { fieldFilter } from "../schema/field_access.ts";
import type { Authenticator } from "./authenticator.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import { type GuardRefusal, handleRequest, type Pipeline } from "./handle_request.ts";
import { Router } from "./router.ts";

/** The options of {@linkcode httpPlugin}. */
export interface HttpPluginOptions {
  /** Resolve the caller, tried in order (a JWT authenticator, an API-key one). */
  readonly authenticators?: readonly Authenticator[];
  /**
   * The HTTP status of domain codes. At run time an unmapped code follows its error's kind
   * (refusal 422, conflict 409, not-found 404); the document, which sees only codes, states 422
   * for an unmapped code — so map every code that is not a refusal, and the two agree.
   */
  readonly statusByCode?: Readonly<Record<string, number>>;
  /** The largest body read, in bytes (default 1 MiB); a larger one answers 413. */
  readonly bodyLimit?: number;
  /**
   * The tenant a request names (default: the `tenantId` path parameter). A project naming the
   * tenant in a header reads it here: `(params, request) => request.headers.get("x-tenant-id") ?? undefined`
   * (headers are read only when a step needs them: reading them has a cost on a real server).
   */
  readonly tenantOf?: (
    params: Readonly<Record<string, string>>,
    request: Request,
  ) => string | undefined;
  /** Called on each guard refusal (see `auditGuardRefusals`). */
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void | Promise<void>;
  /** Function routes (`defineRoute`). */
  readonly routes?: readonly FunctionRoute[];
  /** The document's `info`. */
  readonly info?: OpenApiInfo;
  /**
   * The security schemes of every closed route whose guards name none, in the document: the
   * schemes the authenticators accept (`["bearer"]` with a JWT authenticator).
   */
  readonly security?: readonly string[];
  /** Security schemes by name, for the document (`bearer`, `apiKey`). */
  readonly securitySchemes?: Readonly<Record<string, unknown>>;
}

/** What the HTTP plugin adds to the application (`application.http`). */
export interface HttpApi {
  /**
   * Answers a request: the application as one Web-standard `fetch` (a `Response`, or a promise
   * of one, as `Deno.serve`, Workers and Hono's `mount` accept).
   */
  readonly fetch: (request: Request) => Response | Promise<Response>;
  /** The OpenAPI 3.1 document of every route (deterministic). */
  openapi(): Record<string, unknown>;
  /** The compiled routes, sorted by path then method. */
  readonly routes: readonly CompiledRoute[];
}

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Plugs the presentation layer into the application: compiles every `@Controller` of the modules
 * and every function route once, and answers requests through the pipeline.
 *
 * @example
 * ```ts ignore
 * const application = composeApplication({
 *   modules,
 *   plugins: { http: httpPlugin({ authenticators: [jwtAuthenticator({ ... })] }) },
 * });
 * Deno.serve(application.http.fetch);
 * ```
 */
export function httpPlugin(options: HttpPluginOptions = {}): ApplicationPlugin<HttpApi> {
  return {
    name: "http",
    setup(root: CompositionRoot): HttpApi {
      const routes: CompiledRoute[] = [];
      for (const declared of root.declarations(controllerDeclarations)) {
        const needsScope = checkControllerDependencies(
          declared.target,
          declared.metadata,
          declared.module.dependencies,
        );
        routes.push(compileController(root, declared.target, declared.metadata, needsScope));
      }
      for (const route of options.routes ?? []) routes.push(route.compile(root));
      routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
      const router = new Router<CompiledRoute>();
      for (const route of routes) router.add(route.method, route.path, route);
      const pipeline: Pipeline = {
        router,
        authenticators: options.authenticators ?? [],
        errorReporter: root.errorReporter,
        statusByCode: options.statusByCode ?? {},
        bodyLimit: options.bodyLimit ?? 1_048_576,
        tenantOf: options.tenantOf ?? ((params) => params.tenantId),
        ...(options.onGuardRefusal ? { onGuardRefusal: options.onGuardRefusal } : {}),
      };
      let document: Record<string, unknown> | undefined;
      return {
        fetch: function fetch(request: Request): Response | Promise<Response> {
          return handleRequest(pipeline, request);
        },
        openapi(): Record<string, unknown> {
          document ??= openApiDocument(routes, {
            info: options.info ?? { title: "API", version: "0.0.0" },
            statusByCode: options.statusByCode ?? {},
            securitySchemes: options.securitySchemes ?? {},
            ...(options.security ? { security: options.security } : {}),
          });
          return document;
        },
        routes,
      };
    },
  };
}

function compileController(
  root: CompositionRoot,
  target: AnyClass,
  spec: ControllerSpec,
  needsScope: boolean,
): CompiledRoute {
  const group = spec.group ? resolveGroup(spec.group) : undefined;
  const guards: GuardLike[] = [...(group?.guards ?? []), ...(spec.guards ?? [])];
  if (guards.includes(Public) && guards.length > 1) {
    throw new TypeError(
      `Controller '${target.name}': Public stands alone, but its group adds guards`,
    );
  }
  for (const guard of guards) {
    if (typeof guard === "function" && !root.container.has(guard)) {
      throw new Error(
        `Guard '${guard.name}' of controller '${target.name}' is not declared in any module`,
      );
    }
  }
  const errors = new Set<string>([...(group?.errors ?? []), ...(spec.errors ?? [])]);
  const security = new Set<string>();
  for (const guard of guards) {
    for (const code of documentsOf(guard).errors ?? []) errors.add(code);
    for (const scheme of documentsOf(guard).security ?? []) security.add(scheme);
  }
  if (spec.params || spec.query || spec.headers || spec.body) errors.add("VALIDATION_FAILED");
  if (spec.produces !== undefined) errors.add("NOT_ACCEPTABLE");
  let controller: { handle(request: unknown): unknown } | undefined;
  const instance =
    () => (controller ??= root.container.resolve(target) as { handle(request: unknown): unknown });
  const status = spec.response.status;
  const filter = fieldFilter(spec.response.body);
  const shape = filter === undefined
    ? (body: unknown) => ({ status, body })
    : (body: unknown, request: Record<string, unknown>) => ({
      status,
      body: filter(body, request.actor as Actor),
    });
  return {
    method: spec.method,
    path: joinPaths(group?.prefix ?? "", spec.path),
    operationId: operationIdOf(target.name),
    ...(spec.summary ? { summary: spec.summary } : {}),
    tags: [...new Set(group?.tags ?? [])],
    guards: guards.map((guard) => resolver(root, guard)),
    guardNames: guards.map(guardName),
    errors: [...errors].sort(),
    security: [...security].sort(),
    parts: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.body ? { body: spec.body } : {}),
    },
    responses: new Map([[status, {
      description: spec.response.description ?? "Success",
      ...(spec.response.body ? { body: spec.response.body } : {}),
    }]]),
    produces: spec.produces ?? ["application/json"],
    negotiates: spec.produces !== undefined,
    ...(spec.cache ? { cache: spec.cache } : {}),
    public: guards.length === 1 && guards[0] === Public,
    needsScope,
    run: (request) => {
      const body = instance().handle(request);
      return body instanceof Promise
        ? body.then((value) => shape(value, request))
        : shape(body, request);
    },
  };
}

function resolver(root: CompositionRoot, guard: GuardLike): () => Guard {
  if (typeof guard !== "function") return () => guard;
  let built: Guard | undefined;
  return () => (built ??= root.container.resolve(guard) as Guard);
}

/** Refuses a controller given anything but its bus, a mapper, a serializer; tells whether it has the bus. */
function checkControllerDependencies(
  target: AnyClass,
  spec: ControllerSpec,
  manifest: ReadonlyMap<AnyClass, readonly unknown[]>,
): boolean {
  const bus = writeMethods.has(spec.method) ? CommandBus : QueryBus;
  const deps = manifest.get(target) ?? [];
  for (const dep of deps) {
    const allowed = dep === bus ||
      (typeof dep === "function" &&
        (requestMapperDeclarations.read(dep as AnyClass) !== undefined ||
          serializerDeclarations.read(dep as AnyClass) !== undefined));
    if (!allowed) {
      throw new Error(
        `Controller '${target.name}' may be given only the ${
          bus === CommandBus ? "CommandBus" : "QueryBus"
        }, ` +
          `a @RequestMapper() and a @Serializer(), not '${describeInjectable(dep as any)}'`,
      );
    }
  }
  return deps.includes(bus);
}

function operationIdOf(className: string): string {
  const base = className.replace(/(Controller|Route)$/, "");
  return base.charAt(0).toLowerCase() + base.slice(1);
}
