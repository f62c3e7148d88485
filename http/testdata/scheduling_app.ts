/**
 * A slice of the spec's scheduling API, used by the pipeline tests: route groups, controllers
 * with mappers and a serializer, guards, a function route, permissions decided by the bus.
 */
import { checked } from "./checked.ts";
import { z } from "zod";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  AuthorizedQuery,
  CommandBus,
  composeApplication,
  ConceptError,
  defineModule,
  definePermissions,
  type ErrorReporter,
  ForbiddenError,
  Handles,
  QueryBus,
  Requires,
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
  Guard,
  type GuardRefusal,
  type GuardRequest,
  HasRole,
  type HttpApi,
  httpPlugin,
  type HttpRequest,
  Public,
  RequestMapper,
  RouteGroup,
  Serializer,
  zodSchema,
} from "../mod.ts";

export const permissions = definePermissions("scheduling", {
  "appointment.cancel": { description: "Cancel an appointment" },
  "agenda.read": { description: "Read a practice's agenda" },
});

@Requires(permissions["appointment.cancel"], {
  resource: (c: CancelAppointment) => ({ type: "appointment", id: c.appointmentId }),
})
export class CancelAppointment extends AuthorizedCommand<void> {
  constructor(actor: Actor, readonly appointmentId: string, readonly reason: string) {
    super(actor);
  }
}

export interface Agenda {
  practiceId: string;
  slots: { startsAt: Date; note: string }[];
}

@Requires(permissions["agenda.read"])
export class ReadAgenda extends AuthorizedQuery<Agenda> {
  constructor(actor: Actor, readonly practiceId: string) {
    super(actor);
  }
}

export const cancelled: string[] = [];

@Handles(CancelAppointment)
export class CancelAppointmentHandler {
  handle(command: CancelAppointment): Promise<void> {
    if (command.appointmentId === "missing") {
      throw ConceptError.notFound("APPOINTMENT_NOT_FOUND", "No appointment 'missing'");
    }
    if (command.appointmentId === "past") {
      throw ConceptError.refusal("APPOINTMENT_ENDED", "The appointment has ended");
    }
    if (command.appointmentId === "crash") throw new Error("secret database password leaked");
    cancelled.push(command.appointmentId);
    return Promise.resolve();
  }
}

@Handles(ReadAgenda)
export class ReadAgendaHandler {
  handle(query: ReadAgenda): Promise<Agenda> {
    return Promise.resolve({
      practiceId: query.practiceId,
      slots: [{ startsAt: new Date("2026-09-01T09:00:00Z"), note: "internal" }],
    });
  }
}

@RouteGroup({
  prefix: "/appointments",
  tags: ["appointments"],
  guards: [Authenticated],
  errors: ["FORBIDDEN"],
})
export class AppointmentRoutes {}

@RequestMapper()
export class CancelAppointmentMapper {
  map(
    request: HttpRequest<{ params: { appointmentId: string }; body: { reason: string } }>,
  ): CancelAppointment {
    return new CancelAppointment(request.actor, request.params.appointmentId, request.body.reason);
  }
}

@Controller({
  group: AppointmentRoutes,
  method: "POST",
  path: "/:appointmentId/cancellation",
  summary: "Cancel an appointment",
  params: zodSchema(z.object({ appointmentId: z.string().min(1) })),
  body: zodSchema(z.object({ reason: z.string().min(1) })),
  response: { status: 201, body: acceptedSchema },
  errors: ["APPOINTMENT_NOT_FOUND", "APPOINTMENT_ENDED"],
})
export class CancelAppointmentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly mapper: CancelAppointmentMapper,
  ) {}
  async handle(
    request: HttpRequest<{ params: { appointmentId: string }; body: { reason: string } }>,
  ): Promise<{ id: string }> {
    await this.commands.execute(this.mapper.map(request));
    return { id: request.params.appointmentId };
  }
}

export const order: string[] = [];
/** A guard that records its turn, and refuses when the request's `x-refuse-at` names it. */
const tracing = (name: string) => ({
  name,
  documents: { errors: ["FORBIDDEN"] },
  check(request: GuardRequest): void {
    order.push(name);
    if (request.headers["x-refuse-at"] === name) throw new ForbiddenError(`Refused at ${name}`);
  },
});

@RouteGroup({
  prefix: "/practices/:practiceId",
  tags: ["practices"],
  guards: [Authenticated, tracing("parent")],
})
export class PracticeRoutes {}

@RouteGroup({
  parent: PracticeRoutes,
  prefix: "/agenda",
  tags: ["agenda"],
  guards: [tracing("group")],
})
export class AgendaRoutes {}

@Serializer()
export class AgendaSerializer {
  serialize(agenda: Agenda): { practiceId: string; slots: { startsAt: string }[] } {
    return {
      practiceId: agenda.practiceId,
      slots: agenda.slots.map((s) => ({ startsAt: s.startsAt.toISOString() })),
    };
  }
}

const agendaBody = zodSchema(
  z.object({ practiceId: z.string(), slots: z.array(z.object({ startsAt: z.iso.datetime() })) }),
  { io: "output" },
);

@Controller({
  group: AgendaRoutes,
  method: "GET",
  path: "/",
  query: zodSchema(
    z.object({ from: z.iso.date(), days: z.coerce.number().int().min(1).max(31).default(7) }),
  ),
  response: { status: 200, body: agendaBody },
  guards: [tracing("controller")],
})
export class ReadAgendaController {
  constructor(private readonly queries: QueryBus, private readonly serializer: AgendaSerializer) {}
  async handle(
    request: HttpRequest<{ query: { from: string; days: number } }>,
  ): Promise<{ practiceId: string; slots: { startsAt: string }[] }> {
    const practiceId = request.context.tenantId ?? "";
    return this.serializer.serialize(
      await this.queries.execute(new ReadAgenda(request.actor, practiceId)),
    );
  }
}

export interface ApiKeys {
  isActive(key: string): Promise<boolean>;
}
export const ApiKeys = token<ApiKeys>("ApiKeys");

@Guard()
export class ApiKeyGuard {
  static readonly documents = { errors: ["UNAUTHORIZED"], security: ["apiKey"] };
  constructor(private readonly keys: ApiKeys) {}
  async check(request: GuardRequest): Promise<void> {
    const key = request.headers["x-api-key"];
    if (typeof key !== "string" || !(await this.keys.isActive(key))) {
      throw new UnauthorizedError("A valid API key is required");
    }
  }
}

@Controller({
  method: "GET",
  path: "/health",
  guards: [Public],
  response: {
    status: 200,
    body: zodSchema(z.object({ status: z.literal("ok") }), { io: "output" }),
  },
})
export class HealthController {
  handle(): { status: "ok" } {
    return { status: "ok" };
  }
}

@Controller({
  method: "GET",
  path: "/partners/ping",
  guards: [ApiKeyGuard],
  response: { status: 204 },
})
export class PartnerPingController {
  handle(): void {}
}

@Controller({
  method: "GET",
  path: "/admin/stats",
  guards: [HasRole("admin")],
  response: { status: 200 },
})
export class AdminStatsController {
  handle(): void {}
}

export const calendars = new Set<string>();

export const putCalendar = defineRoute({
  method: "PUT",
  path: "/calendars/:calendarId",
  operationId: "putCalendar",
  tags: ["calendars"],
  request: { params: zodSchema(z.object({ calendarId: z.string().min(1) })) },
  responses: {
    200: { description: "The calendar was there already", body: acceptedSchema },
    201: { description: "The calendar was created", body: acceptedSchema },
  },
  security: ["bearer"],
}, ({ params, context }) => {
  if (calendars.has(params.calendarId)) return { status: 200, body: { id: params.calendarId } };
  calendars.add(params.calendarId);
  void context.execution.actor;
  return {
    status: 201,
    body: { id: params.calendarId },
    headers: { location: `/calendars/${encodeURIComponent(params.calendarId)}` },
  };
});

/** Identifies callers from `x-test-user: id;role,role;tenant,tenant` (a stand-in for a JWT). */
export const headerAuthenticator: Authenticator = {
  authenticate(request) {
    const header = request.headers.get("x-test-user");
    if (header === null) return undefined;
    const [id, roles, tenants] = header.split(";");
    if (!id) throw new UnauthorizedError("Malformed test credential");
    return {
      actor: userActor(id, {
        roles: roles ? roles.split(",") : [],
        tenants: tenants ? tenants.split(",") : [],
      }),
    };
  },
};

export function schedulingApp(
  options: {
    reported?: unknown[];
    refusals?: GuardRefusal[];
    bodyLimit?: number;
    /** Answers held to the document (default); off to see a 500, which no document declares. */
    checked?: boolean;
  } = {},
) {
  const reporter: ErrorReporter = { report: (error) => void options.reported?.push(error) };
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [
          CancelAppointment,
          CancelAppointmentHandler,
          ReadAgenda,
          ReadAgendaHandler,
          AppointmentRoutes,
          PracticeRoutes,
          AgendaRoutes,
          CancelAppointmentMapper,
          CancelAppointmentController,
          AgendaSerializer,
          ReadAgendaController,
          ApiKeyGuard,
          HealthController,
          PartnerPingController,
          AdminStatsController,
        ],
        dependencies: new Map<abstract new (...args: never[]) => unknown, readonly unknown[]>([
          [CancelAppointmentController, [CommandBus, CancelAppointmentMapper]],
          [ReadAgendaController, [QueryBus, AgendaSerializer]],
          [ApiKeyGuard, [ApiKeys]],
        ]) as never,
        providers: [{
          provide: ApiKeys,
          provider: {
            useValue: { isActive: (key: string) => Promise.resolve(key === "good-key") },
          },
        }],
      }),
    ],
    errorReporter: reporter,
    accessPolicy: accessPolicy({
      grants: {
        receptionist: [permissions["appointment.cancel"], permissions["agenda.read"]],
        patient: [permissions["agenda.read"]],
      },
    }),
    plugins: {
      http: httpPlugin({
        authenticators: [headerAuthenticator],
        undeclaredErrors: "refuse",
        routes: [putCalendar],
        info: { title: "Scheduling", version: "1.0.0" },
        openapi: { path: "/openapi.json" },
        docs: {
          path: "/docs",
          assets: () => ({ script: "/* swagger-ui-bundle */", stylesheet: "/* swagger-ui */" }),
        },
        statusByCode: { APPOINTMENT_ENDED: 409, APPOINTMENT_NOT_FOUND: 404 },
        tenantOf: (params) => params.practiceId,
        ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
        ...(options.refusals
          ? { onGuardRefusal: (r: GuardRefusal) => void options.refusals!.push(r) }
          : {}),
      }),
    },
  });
  return options.checked === false ? app.http as HttpApi : checked(app.http as HttpApi);
}

export { ForbiddenError };
