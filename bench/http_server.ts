/** One server of the HTTP load benchmark: `hono` or `kit`, on the given port. */
import { Hono } from "hono";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import {
  Authenticated,
  Controller,
  httpPlugin,
  type HttpRequest,
  Public,
  zodSchema,
} from "@kit/http";

const [which, port] = Deno.args;
let fetch: (request: Request) => Response | Promise<Response>;

if (which === "hono") {
  const app = new Hono();
  app.get("/hello", (c) => c.json({ message: "hello" }));
  fetch = app.fetch;
} else {
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
  @Controller({
    method: "POST",
    path: "/calendars/:calendarId/clearances",
    guards: [Authenticated],
    params: zodSchema(z.object({ calendarId: z.string().min(1) })),
    query: zodSchema(z.object({ notify: z.enum(["yes", "no"]).default("no") })),
    headers: zodSchema(z.object({ "x-request-source": z.string().optional() })),
    body: zodSchema(
      z.object({ reason: z.string().min(1), appointmentIds: z.array(z.string()).max(50) }),
    ),
    response: { status: 202, body: zodSchema(z.object({ id: z.string() }), { io: "output" }) },
  })
  class RequestClearance {
    handle(request: HttpRequest<{ params: { calendarId: string } }>): { id: string } {
      return { id: request.params.calendarId };
    }
  }
  const actor = userActor("dr-who", { roles: ["practitioner"] });
  fetch = composeApplication({
    modules: [defineModule("bench", { declarations: [Hello, RequestClearance] })],
    plugins: {
      http: httpPlugin({
        authenticators: [{
          authenticate: (r) => (r.headers.has("authorization") ? { actor } : undefined),
        }],
      }),
    },
  }).http.fetch;
}

Deno.serve(
  { port: Number(port), hostname: "127.0.0.1", onListen: () => console.log("ready") },
  fetch,
);
