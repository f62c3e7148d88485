/**
 * The kit application of the HTTP benchmark: a `Public` route, and the spec's schema route
 * (params, query, a header and a JSON body validated; `Authenticated` with a real HS256 JWT; a
 * command through the bus whose permission the caller's role grants; a serialized answer).
 */
import { z } from "zod";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  CommandBus,
  composeApplication,
  defineModule,
  definePermissions,
  Handles,
  Requires,
} from "@kit/kernel";
import {
  Authenticated,
  Controller,
  httpPlugin,
  type HttpRequest,
  jwtAuthenticator,
  Public,
  zodSchema,
} from "@kit/http";
import { audience, issuer, secret } from "./shared.ts";

const permissions = definePermissions("scheduling", {
  "calendar.clear": { description: "Clear a calendar" },
});

@Requires(permissions["calendar.clear"], {
  resource: (c: ClearCalendar) => ({ type: "calendar", id: c.calendarId }),
})
class ClearCalendar extends AuthorizedCommand<{ id: string }> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly reason: string,
    readonly appointmentIds: readonly string[],
  ) {
    super(actor);
  }
}

@Handles(ClearCalendar)
class ClearCalendarHandler {
  handle(command: ClearCalendar): Promise<{ id: string }> {
    return Promise.resolve({ id: `${command.calendarId}:${command.appointmentIds.length}` });
  }
}

const hello = zodSchema(z.object({ message: z.string() }), { io: "output" });
@Controller({
  method: "GET",
  path: "/hello",
  guards: [Public],
  response: { status: 200, body: hello },
})
class Hello {
  handle(): { message: string } {
    return { message: "hello" };
  }
}

const clearanceBody = z.object({
  reason: z.string().min(1),
  appointmentIds: z.array(z.string()).max(50),
});
@Controller({
  method: "POST",
  path: "/calendars/:calendarId/clearances",
  guards: [Authenticated],
  params: zodSchema(z.object({ calendarId: z.string().min(1) })),
  query: zodSchema(z.object({ notify: z.enum(["yes", "no"]).default("no") })),
  headers: zodSchema(z.object({ "x-request-source": z.string().optional() })),
  body: zodSchema(clearanceBody),
  response: { status: 202, body: zodSchema(z.object({ id: z.string() }), { io: "output" }) },
})
class RequestClearance {
  constructor(private readonly commands: CommandBus) {}
  handle(
    request: HttpRequest<
      { params: { calendarId: string }; body: z.output<typeof clearanceBody> }
    >,
  ): Promise<{ id: string }> {
    return this.commands.execute(
      new ClearCalendar(
        request.actor,
        request.params.calendarId,
        request.body.reason,
        request.body.appointmentIds,
      ),
    );
  }
}

/** The kit application's fetch handler (`verifiedTokens: 0`: every token verified anew). */
export function kitFetch(
  options: { verifiedTokens?: number } = {},
): (request: Request) => Response | Promise<Response> {
  return composeApplication({
    modules: [
      defineModule("bench", {
        declarations: [Hello, RequestClearance, ClearCalendar, ClearCalendarHandler],
        dependencies: new Map([[RequestClearance, [CommandBus]]]),
      }),
    ],
    accessPolicy: accessPolicy({ grants: { practitioner: [permissions["calendar.clear"]] } }),
    plugins: {
      http: httpPlugin({
        authenticators: [jwtAuthenticator({
          key: new TextEncoder().encode(secret),
          algorithms: ["HS256"],
          issuer,
          audience,
          ...options,
        })],
      }),
    },
  }).http.fetch;
}
