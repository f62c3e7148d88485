import { Authenticated, HasRole, RouteGroup } from "@kit/http";

/**
 * The routes under /appointments: identified callers holding a role of the practice (a patient,
 * the front desk or a practitioner); anyone else is refused by the group (401, then 403).
 */
@RouteGroup({
  prefix: "/appointments",
  tags: ["appointments"],
  guards: [Authenticated, HasRole("patient", "receptionist", "practitioner")],
})
export class Appointments {}
