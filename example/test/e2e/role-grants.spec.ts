/**
 * Role grants are bounded by the granter's role, over HTTP on PostgreSQL: the front desk invites
 * patients and receptionists, never a practitioner (403, nothing stored); a practitioner invites
 * in any role.
 */
import assert from "node:assert/strict";
import { assertProblem, callers, e2e } from "./e2e.ts";

e2e(
  "a receptionist invites no one above their own role; a practitioner invites any role",
  async (app) => {
    const { client } = app;
    const invite = (as: typeof callers.receptionist, email: string, role: string) =>
      client.send("POST", "/people/invitations", { as, body: { email, role } });

    const above = await invite(callers.receptionist, "new-dr@example.com", "practitioner");
    assert.equal(above.status, 403, above.text);
    assert.equal(assertProblem(above, "receptionist invites a practitioner"), "FORBIDDEN");
    assert.equal(
      (await invite(callers.receptionist, "desk@example.com", "receptionist")).status,
      201,
    );
    assert.equal((await invite(callers.receptionist, "pat@example.com", "patient")).status, 201);
    assert.equal(
      (await invite(callers.practitioner, "new-dr@example.com", "practitioner")).status,
      201,
    );

    const rows = await app.db.sql`
    select email, role, invited_by from identity.invitations order by email`;
    assert.deepEqual(rows.map((r) => [r.email, r.role, r.invited_by]), [
      ["desk@example.com", "receptionist", "desk-1"],
      ["new-dr@example.com", "practitioner", "dr-who"],
      ["pat@example.com", "patient", "desk-1"],
    ]);
  },
);
