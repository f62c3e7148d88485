/**
 * A small application with tenant-owned data, used by the tests of the HTTP edge: calendars kept
 * per tenant (`InMemoryAggregates`), written and read through the buses; routes through the full
 * pipeline (guarded, with parts) and through the simple one (a group without guards, no parts).
 * Every option of `httpPlugin` can be given.
 */
import { checked } from "./checked.ts";
import { z } from "zod";
import {
  Command,
  CommandBus,
  composeApplication,
  defineModule,
  type ErrorReporter,
  Handles,
  InMemoryAggregates,
  Query,
  QueryBus,
  readableTenants,
  token,
  UnauthorizedError,
  userActor,
} from "@kit/kernel";
import {
  acceptedSchema,
  Authenticated,
  type Authenticator,
  Controller,
  defineRoute,
  type HttpApi,
  httpPlugin,
  type HttpPluginOptions,
  type HttpRequest,
  RouteGroup,
  TenantMember,
  zodSchema,
} from "../mod.ts";

interface Calendar {
  readonly id: string;
  readonly name: string;
}

const CalendarRows = token<InMemoryAggregates<Calendar>>("CalendarRows");

export class CreateCalendar extends Command<void> {
  constructor(actor: ConstructorParameters<typeof Command>[0], readonly calendar: Calendar) {
    super(actor);
  }
}

export class ListCalendars extends Query<Calendar[]> {}

@Handles(CreateCalendar)
export class CreateCalendarHandler {
  constructor(private readonly rows: InMemoryAggregates<Calendar>) {}
  handle(command: CreateCalendar): Promise<void> {
    this.rows.insert(command.calendar);
    return Promise.resolve();
  }
}

@Handles(ListCalendars)
export class ListCalendarsHandler {
  constructor(private readonly rows: InMemoryAggregates<Calendar>) {}
  handle(): Promise<Calendar[]> {
    readableTenants(); // TENANT_REQUIRED for work that reaches no tenant
    return Promise.resolve(this.rows.list().map((row) => row.state));
  }
}

const calendarBody = zodSchema(
  z.object({ id: z.string().min(1).max(64), name: z.string().max(200) }),
);
const calendarList = zodSchema(z.array(z.object({ id: z.string(), name: z.string() })), {
  io: "output",
});

const tenantBody = zodSchema(z.object({ tenantId: z.string().nullable() }), { io: "output" });
const echoBody = zodSchema(
  z.object({ calendarId: z.string(), q: z.union([z.string(), z.array(z.string())]).nullable() }),
  { io: "output" },
);

@RouteGroup({ prefix: "/calendars", guards: [Authenticated] })
export class CalendarRoutes {}

@Controller({
  group: CalendarRoutes,
  method: "POST",
  path: "/",
  body: calendarBody,
  response: { status: 201, body: acceptedSchema },
})
export class CreateCalendarController {
  constructor(private readonly commands: CommandBus) {}
  async handle(request: HttpRequest<{ body: Calendar }>): Promise<{ id: string }> {
    await this.commands.execute(new CreateCalendar(request.actor, request.body));
    return { id: request.body.id };
  }
}

@Controller({
  group: CalendarRoutes,
  method: "GET",
  path: "/",
  response: { status: 200, body: calendarList },
})
export class ListCalendarsController {
  constructor(private readonly queries: QueryBus) {}
  handle(request: HttpRequest): Promise<Calendar[]> {
    return this.queries.execute(new ListCalendars(request.actor));
  }
}

/**
 * A group without guards: closed all the same (an identified caller needed); its routes without
 * parts have no step of parts in their plan.
 */
@RouteGroup({ prefix: "/open" })
export class OpenRoutes {}

@Controller({
  group: OpenRoutes,
  method: "GET",
  path: "/calendars",
  response: { status: 200, body: calendarList },
})
export class OpenListCalendarsController {
  constructor(private readonly queries: QueryBus) {}
  handle(request: HttpRequest): Promise<Calendar[]> {
    return this.queries.execute(new ListCalendars(request.actor));
  }
}

@Controller({
  group: OpenRoutes,
  method: "GET",
  path: "/tenant",
  response: { status: 200, body: tenantBody },
})
export class OpenTenantController {
  handle(request: HttpRequest): { tenantId: string | null } {
    return { tenantId: request.context.tenantId ?? null };
  }
}

@Controller({
  group: CalendarRoutes,
  method: "GET",
  path: "/tenant",
  response: { status: 200, body: tenantBody },
})
export class TenantController {
  handle(request: HttpRequest): { tenantId: string | null } {
    return { tenantId: request.context.tenantId ?? null };
  }
}

/** Guarded by TenantMember: the caller must belong to the tenant the work runs for. */
@Controller({
  method: "GET",
  path: "/member/tenant",
  guards: [TenantMember],
  response: { status: 200, body: tenantBody },
})
export class MemberTenantController {
  handle(request: HttpRequest): { tenantId: string | null } {
    return { tenantId: request.context.tenantId ?? null };
  }
}

@Controller({
  group: CalendarRoutes,
  method: "GET",
  path: "/cached",
  cache: { maxAge: 60, scope: "private" },
  response: {
    status: 200,
    body: zodSchema(z.object({ cached: z.literal(true) }), { io: "output" }),
  },
})
export class CachedController {
  handle(): { cached: true } {
    return { cached: true };
  }
}

/** A path parameter and a query value, echoed. */
@Controller({
  group: CalendarRoutes,
  method: "GET",
  path: "/:calendarId/echo",
  params: zodSchema(z.object({ calendarId: z.string() })),
  query: zodSchema(z.object({ q: z.union([z.string(), z.array(z.string())]).optional() })),
  response: { status: 200, body: echoBody },
})
export class EchoController {
  handle(
    request: HttpRequest<{ params: { calendarId: string }; query: { q?: string | string[] } }>,
  ): { calendarId: string; q: string | string[] | null } {
    return { calendarId: request.params.calendarId, q: request.query.q ?? null };
  }
}

/**
 * A function route open to anyone that sets its own caching, and one that requires a caller (and
 * sets its own caching for the name `own`).
 */
export const ownCaching = defineRoute({
  method: "GET",
  path: "/own-caching",
  operationId: "ownCaching",
  responses: {
    200: {
      description: "A greeting with its own caching",
      body: zodSchema(z.object({ greeting: z.string() }), { io: "output" }),
    },
  },
  security: [],
}, () => ({ status: 200, body: { greeting: "hello" }, headers: { "Cache-Control": "max-age=5" } }));

export const securedFunction = defineRoute({
  method: "GET",
  path: "/secured/:name",
  operationId: "securedFunction",
  request: { params: zodSchema(z.object({ name: z.string() })) },
  responses: {
    200: {
      description: "The name",
      body: zodSchema(z.object({ name: z.string() }), { io: "output" }),
    },
  },
  security: ["bearer"],
}, ({ params }) => ({
  status: 200,
  body: { name: params.name },
  ...(params.name === "own" ? { headers: { "Cache-Control": "private, max-age=10" } } : {}),
}));

/** Identifies callers from `x-test-user: id;tenant,tenant` (a stand-in for a JWT). */
export const testUsers: Authenticator = {
  authenticate(request) {
    const header = request.headers.get("x-test-user");
    if (header === null) return undefined;
    const [id, tenants] = header.split(";");
    if (!id) throw new UnauthorizedError("Malformed test credential");
    return { actor: userActor(id, { tenants: tenants ? tenants.split(",") : [] }) };
  },
};

/** The same, answering after a turn of the event loop (an authenticator that awaits). */
export const asyncTestUsers: Authenticator = {
  authenticate: (request) => Promise.resolve(testUsers.authenticate(request)),
};

/**
 * The application: the tenant named by the `x-tenant-id` header (`tenantHeader`) unless
 * `options.tenantOf` says otherwise,
 * the test users unless `options.authenticators` do.
 */
export function tenantApp(
  options: HttpPluginOptions & { reported?: unknown[] } = {},
): HttpApi {
  const reporter: ErrorReporter = { report: (error) => void options.reported?.push(error) };
  const rows = new InMemoryAggregates<Calendar>("calendar");
  const { reported: _, ...plugin } = options;
  const app = composeApplication({
    modules: [
      defineModule("calendars", {
        declarations: [
          CreateCalendarHandler,
          ListCalendarsHandler,
          CalendarRoutes,
          CreateCalendarController,
          ListCalendarsController,
          OpenRoutes,
          OpenListCalendarsController,
          OpenTenantController,
          TenantController,
          MemberTenantController,
          CachedController,
          EchoController,
        ],
        dependencies: new Map<abstract new (...args: never[]) => unknown, readonly unknown[]>([
          [CreateCalendarHandler, [CalendarRows]],
          [ListCalendarsHandler, [CalendarRows]],
          [CreateCalendarController, [CommandBus]],
          [ListCalendarsController, [QueryBus]],
          [OpenListCalendarsController, [QueryBus]],
        ]) as never,
        providers: [{ provide: CalendarRows, provider: { useValue: rows } }],
      }),
    ],
    errorReporter: reporter,
    plugins: {
      http: httpPlugin({
        authenticators: [testUsers],
        undeclaredErrors: "refuse",
        routes: [ownCaching, securedFunction],
        ...(plugin.tenantOf === undefined ? { tenantHeader: "x-tenant-id" } : {}),
        ...plugin,
      }),
    },
  });
  return checked(app.http as HttpApi);
}

/** A request as a test user, with headers and an optional JSON body. */
export function requestAs(
  user: string | undefined,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Request {
  return new Request(`http://api.test${path}`, {
    method,
    headers: {
      ...(user === undefined ? {} : { "x-test-user": user }),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    },
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === "string" ? options.body : JSON.stringify(options.body) }),
  });
}
