// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.
import type { AnyClass } from "@kit/kernel";
import { GetMe } from "./application/queries/get-me/get-me.query.ts";
import { GetMeController } from "./presentation/http/get-me.controller.ts";
import { GetMeHandler } from "./application/queries/get-me/get-me.handler.ts";
import { InvitePerson } from "./application/commands/invite-person/invite-person.command.ts";
import { InvitePersonController } from "./presentation/http/invitations.controller.ts";
import { InvitePersonHandler } from "./application/commands/invite-person/invite-person.handler.ts";
import { ListInvitations } from "./application/queries/list-invitations/list-invitations.query.ts";
import { ListInvitationsController } from "./presentation/http/invitations.controller.ts";
import { ListInvitationsHandler } from "./application/queries/list-invitations/list-invitations.handler.ts";
import { People } from "./presentation/http/people.routes.ts";
import { RegisterPerson } from "./application/commands/register-person/register-person.command.ts";
import { RegisterPersonController } from "./presentation/http/register-person.controller.ts";
import { RegisterPersonHandler } from "./application/commands/register-person/register-person.handler.ts";

/** The declared classes of the identity context. */
export const identityDeclarations: readonly AnyClass[] = [
  GetMe,
  GetMeController,
  GetMeHandler,
  InvitePerson,
  InvitePersonController,
  InvitePersonHandler,
  ListInvitations,
  ListInvitationsController,
  ListInvitationsHandler,
  People,
  RegisterPerson,
  RegisterPersonController,
  RegisterPersonHandler,
];
