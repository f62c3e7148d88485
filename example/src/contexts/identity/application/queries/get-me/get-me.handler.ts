import { Handles, tenantsReached } from "@kit/kernel";
import type { People } from "../../ports/people.ts";
import { GetMe, type GetMeResult } from "./get-me.query.ts";

/**
 * Runs GetMe: the caller as the token says, and their profile in the work's practice. Work that
 * runs for no practice (a caller who named none and belongs to several, or to none) reads no
 * profile: it answers from the token alone, unregistered.
 */
@Handles(GetMe)
export class GetMeHandler {
  constructor(private readonly people: People) {}

  async handle(query: GetMe): Promise<GetMeResult> {
    const reach = tenantsReached();
    const person = reach.all || reach.tenants.length > 0
      ? await this.people.find(query.actor.id)
      : undefined;
    return {
      id: query.actor.id,
      roles: [...query.actor.roles].sort(),
      tenants: [...(query.actor.tenants ?? [])].sort(),
      registered: person !== undefined,
      ...(person ? { name: person.name, email: person.email } : {}),
    };
  }
}
