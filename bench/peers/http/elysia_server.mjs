// Elysia on Bun doing the schema route's work: params, query, headers and body validated by
// Elysia's `t` schemas (TypeBox, compiled ahead of time: Elysia's default `aot`), @elysiajs/jwt
// verifying the HS256 bearer token (jose's jwtVerify, algorithm, issuer and audience checked) with
// a `CryptoKey` imported once (its `secret` accepts one; given a string it hands jose a Uint8Array,
// which jose 6 imports anew on every verify, as hono/jwt does with a string), the
// permission from the token's roles, the use case, and the response checked against its `t`
// schema. Production settings, as Elysia's docs recommend
// (https://elysiajs.com/patterns/deploy: "Compile to binary"): the benchmark compiles this file
// with `bun build --compile --minify-whitespace --minify-syntax --target bun` and runs the binary
// with NODE_ENV=production.
import { Elysia, t } from "elysia";
import { jwt } from "@elysiajs/jwt";

const [port, secret, issuer, audience] = process.argv.slice(2);
const verify = { algorithms: ["HS256"], issuer, audience };
const key = await crypto.subtle.importKey(
  "raw",
  new TextEncoder().encode(secret),
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["verify"],
);
const grants = { practitioner: ["calendar.clear"] };
const clearCalendar = (calendarId, appointmentIds) =>
  Promise.resolve({ id: `${calendarId}:${appointmentIds.length}` });

new Elysia()
  .use(jwt({ name: "jwt", secret: key }))
  .post("/calendars/:calendarId/clearances", async ({ jwt, headers, params, body, status }) => {
    const authorization = headers.authorization;
    const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
    const user = await jwt.verify(token, verify);
    if (!user) return status(401, { code: "UNAUTHORIZED" });
    const roles = Array.isArray(user.roles) ? user.roles : [];
    if (!roles.some((role) => grants[role]?.includes("calendar.clear"))) {
      return status(403, { code: "FORBIDDEN" });
    }
    return status(202, await clearCalendar(params.calendarId, body.appointmentIds));
  }, {
    params: t.Object({ calendarId: t.String({ minLength: 1 }) }),
    query: t.Object({ notify: t.Optional(t.UnionEnum(["yes", "no"], { default: "no" })) }),
    headers: t.Object({
      "x-request-source": t.Optional(t.String()),
      authorization: t.Optional(t.String()),
    }),
    body: t.Object({
      reason: t.String({ minLength: 1 }),
      appointmentIds: t.Array(t.String(), { maxItems: 50 }),
    }),
    response: {
      202: t.Object({ id: t.String() }),
      401: t.Object({ code: t.String() }),
      403: t.Object({ code: t.String() }),
    },
  })
  .listen({ port: Number(port), hostname: "127.0.0.1" }, () => console.log("ready"));
