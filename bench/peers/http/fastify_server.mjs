// Fastify (Node) doing the schema route's work: JSON Schema validation of params, query, headers
// and body (Fastify's ajv, compiled at startup), @fastify/jwt verifying the HS256 bearer token
// (issuer and audience checked), the permission from the token's roles, the use case, and the
// response serialized by its JSON Schema. Production settings: logger off.
import Fastify from "fastify";
import fastifyJwt from "@fastify/jwt";

const [port, secret, issuer, audience] = process.argv.slice(2);
const app = Fastify({ logger: false });
await app.register(fastifyJwt, {
  secret,
  verify: { algorithms: ["HS256"], allowedIss: issuer, allowedAud: audience },
});
const grants = { practitioner: ["calendar.clear"] };
const clearCalendar = (calendarId, appointmentIds) =>
  Promise.resolve({ id: `${calendarId}:${appointmentIds.length}` });

app.post("/calendars/:calendarId/clearances", {
  schema: {
    params: {
      type: "object",
      properties: { calendarId: { type: "string", minLength: 1 } },
      required: ["calendarId"],
    },
    querystring: {
      type: "object",
      properties: { notify: { type: "string", enum: ["yes", "no"], default: "no" } },
    },
    headers: { type: "object", properties: { "x-request-source": { type: "string" } } },
    body: {
      type: "object",
      properties: {
        reason: { type: "string", minLength: 1 },
        appointmentIds: { type: "array", items: { type: "string" }, maxItems: 50 },
      },
      required: ["reason", "appointmentIds"],
    },
    response: { 202: { type: "object", properties: { id: { type: "string" } } } },
  },
  onRequest: async (request, reply) => {
    try {
      await request.jwtVerify();
    } catch {
      return reply.code(401).send({ code: "UNAUTHORIZED" });
    }
  },
}, async (request, reply) => {
  const roles = request.user.roles ?? [];
  if (!roles.some((role) => grants[role]?.includes("calendar.clear"))) {
    return reply.code(403).send({ code: "FORBIDDEN" });
  }
  return reply.code(202).send(
    await clearCalendar(request.params.calendarId, request.body.appointmentIds),
  );
});

await app.listen({ port: Number(port), host: "127.0.0.1" });
console.log("ready");
