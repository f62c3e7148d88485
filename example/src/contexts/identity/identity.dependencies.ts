// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import { InvitePersonHandler } from "./application/commands/invite-person/invite-person.handler.ts";
import { RegisterPersonHandler } from "./application/commands/register-person/register-person.handler.ts";
import { People } from "./application/ports/people.ts";
import { GetMeHandler } from "./application/queries/get-me/get-me.handler.ts";
import { ListInvitationsHandler } from "./application/queries/list-invitations/list-invitations.handler.ts";
import { GetMeController } from "./presentation/http/get-me.controller.ts";
import {
  InvitePersonController,
  ListInvitationsController,
} from "./presentation/http/invitations.controller.ts";
import { RegisterPersonController } from "./presentation/http/register-person.controller.ts";
import {
  Clock,
  CommandBus,
  type DependencyManifest,
  EventPublisher,
  IdGenerator,
  QueryBus,
} from "@kit/kernel";

/** The constructor dependencies of the identity context's classes. */
export const identityDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([
  [GetMeController, [QueryBus]],
  [GetMeHandler, [People]],
  [InvitePersonController, [CommandBus]],
  [InvitePersonHandler, [People, IdGenerator, Clock]],
  [ListInvitationsController, [QueryBus]],
  [ListInvitationsHandler, [People]],
  [RegisterPersonController, [CommandBus]],
  [RegisterPersonHandler, [People, EventPublisher, Clock]],
]) as DependencyManifest;
