import { type Token, token } from "@kit/kernel";
import type { Invitation, Person } from "../../domain/person.ts";

/** Where people and invitations are kept. */
export interface People {
  /** The person, or undefined when not registered. */
  find(id: string): Promise<Person | undefined>;
  /** Registers a person; false when the id is registered already. */
  register(person: Person): Promise<boolean>;
  /** Stores an invitation; false when that email is invited to that tenant already. */
  invite(invitation: Invitation): Promise<boolean>;
  /** The invitations of a tenant (all when none), newest first. */
  invitations(tenantId: string | undefined): Promise<Invitation[]>;
}

/** The token of {@linkcode People}. */
export const People: Token<People> = token<People>("identity.People");
