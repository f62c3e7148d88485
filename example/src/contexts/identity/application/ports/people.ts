import { type Token, token } from "@kit/kernel";
import type { Invitation, Person } from "../../domain/person.ts";

/**
 * Where people and invitations are kept, per practice (tenant): reads see the tenants the work
 * reaches, writes are for the work's tenant (a person registers a profile in each practice).
 */
export interface People {
  /** The person's profile in the work's practice, or undefined when not registered there. */
  find(id: string): Promise<Person | undefined>;
  /** Registers a person in the work's practice; false when registered there already. */
  register(person: Person): Promise<boolean>;
  /** Stores an invitation to the work's practice; false when that email is invited already. */
  invite(invitation: Invitation): Promise<boolean>;
  /** The invitations of the practices the work reaches, newest first. */
  invitations(): Promise<Invitation[]>;
}

/** The token of {@linkcode People}. */
export const People: Token<People> = token<People>("identity.People");
