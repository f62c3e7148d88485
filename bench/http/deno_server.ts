/**
 * One Deno server of the HTTP benchmark, named by its first argument, on the port of the second:
 * `reference` (Deno.serve, a constant JSON body), `hono` (bare Hono), `kit` (the kit application:
 * `/hello` and the schema route), `kit-no-token-cache` (the same, every token verified anew),
 * `zod-openapi` (@hono/zod-openapi doing the schema route's work
 * with its validators and hono's JWT middleware). Prints "ready" once listening.
 */
import { Hono } from "hono";
import { jwt } from "hono/jwt";
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { kitFetch } from "./kit_app.ts";
import { audience, issuer, secret } from "./shared.ts";

const [which, port] = Deno.args;
let fetch: (request: Request) => Response | Promise<Response>;

if (which === "reference") {
  const body = JSON.stringify({ message: "hello" });
  fetch = () => new Response(body, { headers: { "content-type": "application/json" } });
} else if (which === "hono") {
  const app = new Hono();
  app.get("/hello", (c) => c.json({ message: "hello" }));
  fetch = app.fetch;
} else if (which === "kit") {
  fetch = kitFetch();
} else if (which === "kit-no-token-cache") {
  fetch = kitFetch({ verifiedTokens: 0 });
} else if (which === "zod-openapi") {
  const app = new OpenAPIHono();
  const route = createRoute({
    method: "post",
    path: "/calendars/{calendarId}/clearances",
    request: {
      params: z.object({ calendarId: z.string().min(1) }),
      query: z.object({ notify: z.enum(["yes", "no"]).default("no") }),
      headers: z.object({ "x-request-source": z.string().optional() }),
      body: {
        content: {
          "application/json": {
            schema: z.object({
              reason: z.string().min(1),
              appointmentIds: z.array(z.string()).max(50),
            }),
          },
        },
      },
    },
    responses: {
      202: {
        description: "Accepted",
        content: { "application/json": { schema: z.object({ id: z.string() }) } },
      },
    },
  });
  // The same work as kit's: verify the token, check the permission, call the use case.
  const grants: Record<string, readonly string[]> = { practitioner: ["calendar.clear"] };
  const clearCalendar = (calendarId: string, appointmentIds: readonly string[]) =>
    Promise.resolve({ id: `${calendarId}:${appointmentIds.length}` });
  // As hono/jwt's documentation allows for production: the key imported once (a string secret is
  // imported again on every request), and the same claims checked as kit checks (issuer,
  // audience; hono/jwt checks exp and nbf when present).
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  app.use(
    "/calendars/*",
    jwt({ secret: key, alg: "HS256", verification: { iss: issuer, aud: audience } }),
  );
  app.openapi(route, async (c) => {
    const claims = c.get("jwtPayload") as { roles?: string[] };
    if (!(claims.roles ?? []).some((role) => grants[role]?.includes("calendar.clear"))) {
      return c.json({ code: "FORBIDDEN" }, 403) as never;
    }
    const { calendarId } = c.req.valid("param");
    const { appointmentIds } = c.req.valid("json");
    return c.json(await clearCalendar(calendarId, appointmentIds), 202);
  });
  fetch = app.fetch;
} else {
  throw new Error(`unknown server '${which}'`);
}

Deno.serve(
  { port: Number(port), hostname: "127.0.0.1", onListen: () => console.log("ready") },
  fetch,
);
