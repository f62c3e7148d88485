import {
  acceptedSchema,
  Controller,
  controllerRoute,
  HasRole,
  type RequestOf,
  type ResponseOf,
  zodSchema,
} from "@kit/http";
import type { CommandBus, QueryBus } from "@kit/kernel";
import { z } from "zod";
import { InvitePerson } from "../../application/commands/invite-person/invite-person.command.ts";
import { ListInvitations } from "../../application/queries/list-invitations/list-invitations.query.ts";
import { People } from "./people.routes.ts";
import { identityErrors } from "../../domain/identity-errors.ts";
import { practiceRoles as roles } from "../../domain/role-grants.ts";

const invitations = z.array(z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(roles),
  invitedBy: z.string(),
  invitedAt: z.iso.datetime(),
}));

const listInvitationsRoute = controllerRoute({
  group: People,
  method: "GET",
  path: "/invitations",
  permissions: [ListInvitations],
  summary: "The practice's invitations",
  guards: [HasRole("practitioner", "receptionist")],
  response: {
    status: 200,
    description: "The invitations",
    body: zodSchema(invitations, { io: "output" }),
  },
  errors: ["FORBIDDEN"],
});

/** GET /people/invitations: the practice's invitations, newest first (staff only). */
@Controller(listInvitationsRoute)
export class ListInvitationsController {
  constructor(private readonly queries: QueryBus) {}

  async handle(
    request: RequestOf<typeof listInvitationsRoute>,
  ): Promise<ResponseOf<typeof listInvitationsRoute>> {
    const found = await this.queries.execute(new ListInvitations(request.actor));
    return found.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      invitedBy: i.invitedBy,
      invitedAt: i.invitedAt.toISOString(),
    }));
  }
}

const invitation = z.object({ email: z.email().max(254), role: z.enum(roles) });

const invitePersonRoute = controllerRoute({
  group: People,
  method: "POST",
  path: "/invitations",
  permissions: [InvitePerson],
  summary: "Invite someone",
  guards: [HasRole("practitioner", "receptionist")],
  body: zodSchema(invitation),
  response: { status: 201, description: "Invited", body: acceptedSchema },
  errors: ["FORBIDDEN", identityErrors.ALREADY_INVITED],
});

/**
 * POST /people/invitations: invites someone to the practice in a role (staff only), no higher than
 * the inviter's own (403 `FORBIDDEN` otherwise).
 */
@Controller(invitePersonRoute)
export class InvitePersonController {
  constructor(private readonly commands: CommandBus) {}

  handle(
    request: RequestOf<typeof invitePersonRoute>,
  ): Promise<ResponseOf<typeof invitePersonRoute>> {
    return this.commands.execute(
      new InvitePerson(request.actor, request.body.email, request.body.role),
    );
  }
}
