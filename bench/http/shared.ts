/**
 * What every server of the HTTP benchmark shares: the JWT secret and claims, and the schema
 * route's request (POST /calendars/:calendarId/clearances?notify=yes with a header and a body).
 */
export const secret = "bench-secret-0123456789-0123456789-0123456789";
export const issuer = "https://id.bench.example";
export const audience = "bench-api";

/** The request body every schema row receives. */
export const body = JSON.stringify({
  reason: "practice closed",
  appointmentIds: ["a1", "a2", "a3"],
});
