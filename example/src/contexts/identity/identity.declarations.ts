// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.
import type { AnyClass } from "@kit/kernel";
import { GetMe } from "./application/queries/get-me/get-me.query.ts";
import { GetMeHandler } from "./application/queries/get-me/get-me.handler.ts";
import { ListInvitations } from "./application/queries/list-invitations/list-invitations.query.ts";
import { ListInvitationsHandler } from "./application/queries/list-invitations/list-invitations.handler.ts";
import { People } from "./presentation/http/people.routes.ts";
import { RegisterPerson } from "./application/commands/register-person/register-person.command.ts";
import { RegisterPersonHandler } from "./application/commands/register-person/register-person.handler.ts";

/** The declared classes of the identity context. */
export const identityDeclarations: readonly AnyClass[] = [
  GetMe,
  GetMeHandler,
  ListInvitations,
  ListInvitationsHandler,
  People,
  RegisterPerson,
  RegisterPersonHandler,
];
