// deno-lint-ignore-file no-explicit-any
import {
  type Actor,
  type AnyClass,
  CommandBus,
  type IdempotencyStore,
  QueryBus,
  TransactionManager,
} from "@kit/kernel";
import {
  type ApplicationPlugin,
  type CompositionRoot,
  describeInjectable,
  kernelStatusByCode,
} from "@kit/kernel/internal";
import { Public } from "../declaration/built_in_guards.ts";
import {
  controllerDeclarations,
  type ControllerSpec,
  type IdempotencyOptions,
} from "../declaration/controller.ts";
import { idempotentRun } from "../idempotency/idempotent_run.ts";
import { documentsOf, type Guard, type GuardLike, guardName } from "../declaration/guard.ts";
import {
  requestMapperDeclarations,
  serializerDeclarations,
} from "../declaration/mapper_serializer.ts";
import { joinPaths, resolveGroup } from "../declaration/route_group.ts";
import { permissionNames } from "../declaration/route_permissions.ts";
import type { FunctionRoute } from "../declaration/define_route.ts";
import {
  openApiDocument,
  type OpenApiInfo,
  type OpenApiServer,
} from "../openapi/openapi_document.ts";
import type { MeterProvider } from "@opentelemetry/api";
import { HttpMetrics } from "../observability/http_metrics.ts";
import { fieldFilter } from "../schema/field_access.ts";
import type { Authenticator } from "./authenticator.ts";
import { authenticatorsFor } from "./route_authenticators.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import { Cors, type CorsOptions } from "../cors/cors.ts";
import { type GuardRefusal, handleRequest, type Pipeline } from "./handle_request.ts";
import { pathOf } from "./request_path.ts";
import { planRoute, type RoutePlan } from "./route_plan.ts";
import { Router } from "./router.ts";
import { type ContractContext, routeErrors } from "../contract/route_contract.ts";
import { checkOneStatusPerCode, type DeclaredCode } from "../contract/route_errors.ts";
import type { UndeclaredErrors } from "../contract/refusal_status.ts";
import {
  contractRoutes,
  type DocsRouteOptions,
  type OpenApiRouteOptions,
} from "../openapi/contract_routes.ts";

/** The options of {@linkcode httpPlugin}. */
export interface HttpPluginOptions {
  /** Resolve the caller, tried in order (a JWT authenticator, an API-key one). */
  readonly authenticators?: readonly Authenticator[];
  /**
   * Overrides of the HTTP status of codes, over every other. A code's status is declared once,
   * by its context (`defineErrorCodes`), and kit's own codes have theirs (`TENANT_REQUIRED` 400,
   * `CONCURRENT_UPDATE` 409, `INVALID_INPUT` 422, ...): map a code here only to answer another
   * status for it everywhere, or to give a status to a code named by a string. The answer and
   * the document read the same status.
   */
  readonly statusByCode?: Readonly<Record<string, number>>;
  /**
   * What a route answering a code it does not declare does (its contract would lie): `report`
   * (default, for production) answers the code with its status and reports the drift to the
   * error reporter; `refuse` (development and tests) reports it and answers 500, so that a test
   * meets it. A route declaring a code of unknown status is refused at composition either way.
   */
  readonly undeclaredErrors?: UndeclaredErrors;
  /** The largest body read, in bytes (default 1 MiB); a larger one answers 413. */
  readonly bodyLimit?: number;
  /**
   * How long a body may take to arrive once the pipeline starts reading it, in milliseconds
   * (default 30 000): a body not all received by then answers 408 (`REQUEST_TIMEOUT`) and its
   * read is cancelled, so that a half-sent upload holds no handler. Reads that start within a
   * tenth of it share one timer, so a read may get up to a tenth more. `Infinity` waits for ever.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Whether text no store keeps is refused (default `true`): a NUL character (`\u0000` in a JSON
   * body, `%00` in a path or query) or ill-formed UTF-16 (a lone surrogate such as `\ud800`) in
   * a string or key of the body, a path parameter or a query value answers 422
   * (`VALIDATION_FAILED`) naming its pointer (`/body/name`, `/params/id`, `/query/q`), before any
   * schema sees it. `false` lets such text through to the schemas and the handler: then the
   * project keeps it from the store. (A path segment that is not percent-encoded UTF-8, such as
   * `%ED%A0%80`, is refused either way.)
   */
  readonly refuseUnstorableText?: boolean;
  /**
   * The CORS policy (see {@linkcode CorsOptions}). Without it, nothing is allowed: no answer
   * carries a CORS header, and a preflight is answered as any other request.
   */
  readonly cors?: CorsOptions;
  /**
   * The tenant a request names (default: the `tenantId` path parameter; a header: see
   * `tenantHeader`, which also documents it). A project naming the tenant elsewhere reads it here
   * (headers are read only when a step needs them: reading them has a cost on a real server).
   * A tenant named is checked: empty, longer than 128 characters, or with a control character,
   * it answers 400 (`INVALID_TENANT`); a caller who does not belong to it is refused (403,
   * `TenantMember`). A request naming none runs for the caller's only tenant (`defaultTenant`),
   * or for no tenant (a caller of several, or none): then work on tenant-owned data is refused
   * with `TENANT_REQUIRED` (400).
   */
  readonly tenantOf?: (
    params: Readonly<Record<string, string>>,
    request: Request,
  ) => string | undefined;
  /**
   * The header that names a request's tenant (`"x-tenant-id"`), instead of `tenantOf`: read on
   * every route, checked as `tenantOf` says, and stated in the document as an optional header
   * parameter of every operation (with its bounds), so that a client generated from it can send
   * it.
   */
  readonly tenantHeader?: string;
  /** Called on each guard refusal (see `auditGuardRefusals`). */
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void | Promise<void>;
  /**
   * Where the answers of idempotent routes (`idempotent: true`) are kept, in the use case's unit
   * of work: `PostgresIdempotencyStore` (`@kit/kernel/postgres`) beside `PostgresTransactions`,
   * `InMemoryIdempotencyStore` in memory. Required when a route is idempotent.
   */
  readonly idempotency?: { readonly store: IdempotencyStore };
  /** Function routes (`defineRoute`). */
  readonly routes?: readonly FunctionRoute[];
  /** The document's `info` (title, version, description, license, contact). */
  readonly info?: OpenApiInfo;
  /** Where the API answers: the document's `servers`. */
  readonly servers?: readonly OpenApiServer[];
  /**
   * The security schemes of every closed route whose guards name none, in the document: the
   * schemes the authenticators accept (`["bearer"]` with a JWT authenticator).
   */
  readonly security?: readonly string[];
  /** Security schemes by name, for the document (`bearer`, `apiKey`). */
  readonly securitySchemes?: Readonly<Record<string, unknown>>;
  /**
   * Serve the OpenAPI document (`{ path: "/openapi.json" }`, the default path): JSON, YAML to
   * `Accept: application/yaml` and at `/openapi.yaml`. Open to anyone; off without this option.
   */
  readonly openapi?: OpenApiRouteOptions;
  /**
   * Serve the API docs page, Swagger UI reading the served document (`{ path: "/docs", assets }`),
   * with a Content-Security-Policy that lets it load only from this server (`apiDocsPolicy`).
   * Needs `openapi`.
   */
  readonly docs?: DocsRouteOptions;
  /**
   * The meter provider of `http.server.request.duration` (meter `kit`; default: the global one,
   * read when the application is composed, so register the SDK's provider before). Without an
   * SDK, nothing is measured.
   */
  readonly meterProvider?: MeterProvider;
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
      const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
      const contract: ContractContext = {
        statusByCode: options.statusByCode ?? {},
        authenticates: (options.authenticators ?? []).length > 0,
        authenticators: options.authenticators ?? [],
        security: options.security ?? [],
        securitySchemes: new Set(Object.keys(options.securitySchemes ?? {})),
        tenantInPathOnly: options.tenantOf === undefined && options.tenantHeader === undefined,
        bodyTimeout: bodyTimeoutMs !== Infinity,
      };
      const routes: CompiledRoute[] = [];
      for (const declared of root.declarations(controllerDeclarations)) {
        const needsScope = checkControllerDependencies(
          declared.target,
          declared.metadata,
          declared.module.dependencies,
        );
        routes.push(
          compileController(
            root,
            declared.target,
            declared.metadata,
            needsScope,
            options,
            contract,
          ),
        );
      }
      for (const route of options.routes ?? []) routes.push(route.compile(root, contract));
      checkOneStatusPerCode(routes);
      routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
      const router = new Router<RoutePlan>();
      const tenantInPathOnly = contract.tenantInPathOnly;
      for (const route of routes) {
        router.add(route.method, route.path, planRoute(route, { tenantInPathOnly }));
      }
      const statusByCode = { ...kernelStatusByCode, ...options.statusByCode };
      if (!(bodyTimeoutMs > 0)) {
        throw new TypeError(
          `httpPlugin() bodyTimeoutMs must be a number of milliseconds > 0, got ${bodyTimeoutMs}`,
        );
      }
      const metrics = HttpMetrics.of(
        options.meterProvider ? { meterProvider: options.meterProvider } : {},
      );
      const pipeline: Pipeline = {
        router,
        errorReporter: root.errorReporter,
        statusByCode,
        undeclaredErrors: options.undeclaredErrors ?? "report",
        bodyLimit: options.bodyLimit ?? 1_048_576,
        bodyTimeoutMs,
        refuseUnstorableText: options.refuseUnstorableText ?? true,
        tenantOf: tenantOfRequest(options),
        ...tenantHintOf(options),
        ...(options.onGuardRefusal ? { onGuardRefusal: options.onGuardRefusal } : {}),
        ...(options.cors ? { cors: new Cors(options.cors) } : {}),
        ...(metrics ? { metrics } : {}),
      };
      let document: Record<string, unknown> | undefined;
      const openapi = (): Record<string, unknown> =>
        document ??= openApiDocument(routes, {
          info: options.info ?? { title: "API", version: "0.0.0" },
          securitySchemes: options.securitySchemes ?? {},
          ...(options.security ? { security: options.security } : {}),
          ...(options.servers ? { servers: options.servers } : {}),
          ...(options.tenantHeader ? { tenantHeader: options.tenantHeader } : {}),
        });
      const served = contractRoutes(openapi, options.openapi, options.docs);
      return {
        fetch: served === undefined
          ? function fetch(request: Request): Response | Promise<Response> {
            return handleRequest(pipeline, request);
          }
          : function fetch(request: Request): Response | Promise<Response> {
            const start = metrics === undefined ? 0 : metrics.now();
            const path = pathOf(request.url);
            const answer = served(request, path);
            if (answer === undefined) return handleRequest(pipeline, request, path);
            return metrics === undefined
              ? answer
              : metrics.series(path, request.method).measure(start, answer);
          },
        openapi,
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
  options: HttpPluginOptions,
  contract: ContractContext,
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
  const declaredCodes: DeclaredCode[] = [...(group?.errors ?? []), ...(spec.errors ?? [])];
  const security = new Set<string>();
  for (const guard of guards) {
    declaredCodes.push(...documentsOf(guard).errors ?? []);
    for (const scheme of documentsOf(guard).security ?? []) security.add(scheme);
  }
  const permissions = permissionNames(
    spec.permissions,
    ...guards.map((guard) => documentsOf(guard).permissions),
  );
  const idempotency = spec.idempotent === true ? {} : spec.idempotent || undefined;
  if (idempotency !== undefined) {
    declaredCodes.push(...idempotencyErrors(target, spec, idempotency, options));
  }
  const path = joinPaths(group?.prefix ?? "", spec.path);
  const isPublic = guards.length === 1 && guards[0] === Public;
  const parts = {
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.body ? { body: spec.body } : {}),
  };
  const errors = routeErrors(contract, `Controller '${target.name}'`, declaredCodes, {
    path,
    parts,
    negotiates: spec.produces !== undefined,
    public: isPublic,
    requiresCaller: !isPublic && guards.length === 0,
    sends: needsScope ? (writeMethods.has(spec.method) ? "command" : "query") : "none",
    idempotent: idempotency !== undefined,
  });
  let controller: { handle(request: unknown): unknown } | undefined;
  const instance =
    () => (controller ??= root.container.resolve(target) as { handle(request: unknown): unknown });
  const status = spec.response.status;
  const filter = fieldFilter(spec.response.body);
  const location = spec.response.location;
  const filtered = filter === undefined
    ? (body: unknown) => ({ status, body })
    : (body: unknown, request: Record<string, unknown>) => ({
      status,
      body: filter(body, request.actor as Actor),
    });
  const shape = location === undefined
    ? filtered
    : (body: unknown, request: Record<string, unknown>) => ({
      ...filtered(body, request),
      headers: { location: location(body, request as never) },
    });
  return {
    method: spec.method,
    path,
    operationId: operationIdOf(target.name),
    ...(spec.summary ? { summary: spec.summary } : {}),
    tags: [...new Set(group?.tags ?? [])],
    ...(permissions.length > 0 ? { permissions } : {}),
    guards: guards.map((guard) => resolver(root, guard)),
    guardNames: guards.map(guardName),
    errors,
    security: [...security].sort(),
    authenticators: authenticatorsFor(
      contract.authenticators,
      contract.securitySchemes,
      `Controller '${target.name}'`,
      security.size > 0 ? [...security] : contract.security,
      isPublic,
    ),
    parts,
    responses: new Map([[status, {
      description: spec.response.description ?? "Success",
      ...(spec.response.body ? { body: spec.response.body } : {}),
      ...(location ? { location: true } : {}),
    }]]),
    produces: spec.produces ?? ["application/json"],
    negotiates: spec.produces !== undefined,
    ...(spec.cache ? { cache: spec.cache } : {}),
    ...(idempotency ? { idempotency } : {}),
    public: isPublic,
    requiresCaller: !isPublic && guards.length === 0,
    needsScope,
    run: idempotency === undefined ? run : idempotentRun(
      `${spec.method} ${path}`,
      idempotency,
      {
        store: options.idempotency!.store,
        transactions: root.container.resolve(TransactionManager),
        clock: root.clock,
      },
      run,
    ),
    // Only when shaping runs no code of the project's (a field rule, a location), which could
    // read the work scope: `run` shapes in it, the pipeline's one continuation outside it.
    ...(idempotency === undefined && filter === undefined && location === undefined
      ? { handle, shape }
      : {}),
  };

  function handle(request: Record<string, unknown>): unknown {
    return instance().handle(request);
  }

  function run(request: Record<string, unknown>) {
    const body = instance().handle(request);
    return body instanceof Promise ? shapeLater(body, request) : shape(body, request);
  }

  /** A closure only for an answer to come (none captured on the way of a synchronous one). */
  function shapeLater(body: Promise<unknown>, request: Record<string, unknown>) {
    return body.then((value) => shape(value, request));
  }
}

/** The codes an idempotent route may answer; refuses a read route or a missing store. */
function idempotencyErrors(
  target: AnyClass,
  spec: ControllerSpec,
  idempotency: IdempotencyOptions,
  options: HttpPluginOptions,
): string[] {
  if (!writeMethods.has(spec.method)) {
    throw new TypeError(
      `Controller '${target.name}' is idempotent, but ${spec.method} is not a write: only POST, PUT, PATCH and DELETE take an Idempotency-Key`,
    );
  }
  if (options.idempotency?.store === undefined) {
    throw new Error(
      `Controller '${target.name}' is idempotent: give httpPlugin({ idempotency: { store } }) a store (PostgresIdempotencyStore, InMemoryIdempotencyStore)`,
    );
  }
  return [
    "IDEMPOTENCY_KEY_INVALID",
    "IDEMPOTENCY_KEY_IN_USE",
    "IDEMPOTENCY_KEY_REUSED",
    ...(idempotency.required ? ["IDEMPOTENCY_KEY_REQUIRED"] : []),
  ];
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

/**
 * What a `TENANT_REQUIRED` answer tells the caller to do: send the tenant header, or call a route
 * whose path names the tenant; nothing when the project's own `tenantOf` reads it.
 */
function tenantHintOf(options: HttpPluginOptions): { tenantHint?: string } {
  if (options.tenantHeader !== undefined) {
    return {
      tenantHint:
        `send the header '${options.tenantHeader}' naming one of your tenants (your token lists them)`,
    };
  }
  if (options.tenantOf !== undefined) return {};
  return { tenantHint: "call the route whose path names one of your tenants (:tenantId)" };
}

/** How the pipeline reads the tenant a request names: `tenantOf`, `tenantHeader`, or the path. */
function tenantOfRequest(
  options: HttpPluginOptions,
): (params: Readonly<Record<string, string>>, request: Request) => string | undefined {
  const header = options.tenantHeader;
  if (header === undefined) return options.tenantOf ?? ((params) => params.tenantId);
  if (options.tenantOf !== undefined) {
    throw new TypeError("httpPlugin() takes tenantOf or tenantHeader, not both");
  }
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) {
    throw new TypeError(`httpPlugin() tenantHeader must be a header name, got '${header}'`);
  }
  return (_params, request) => request.headers.get(header) ?? undefined;
}
