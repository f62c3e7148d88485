import { Handles } from "@kit/kernel";
import type { People } from "../../ports/people.ts";
import { GetMe, type GetMeResult } from "./get-me.query.ts";

/** Runs GetMe. */
@Handles(GetMe)
export class GetMeHandler {
  constructor(private readonly people: People) {}

  async handle(query: GetMe): Promise<GetMeResult> {
    const person = await this.people.find(query.actor.id);
    return {
      id: query.actor.id,
      roles: [...query.actor.roles].sort(),
      tenants: [...(query.actor.tenants ?? [])].sort(),
      registered: person !== undefined,
      ...(person ? { name: person.name, email: person.email } : {}),
    };
  }
}
