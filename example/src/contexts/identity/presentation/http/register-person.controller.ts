import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { textSchema } from "../../../../shared-kernel/schemas.ts";
import { RegisterPerson } from "../../application/commands/register-person/register-person.command.ts";
import { People } from "./people.routes.ts";
import { identityErrors } from "../../domain/identity-errors.ts";

const profile = z.object({ name: textSchema(200), email: z.email().max(254) });

/** POST /people/me: the caller registers their profile. */
@Controller({
  group: People,
  method: "POST",
  path: "/me",
  permissions: [RegisterPerson],
  summary: "Register my profile",
  body: zodSchema(profile),
  response: { status: 201, description: "Registered", body: acceptedSchema },
  errors: ["FORBIDDEN", identityErrors.PERSON_REGISTERED],
})
export class RegisterPersonController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: HttpRequest<{ body: z.output<typeof profile> }>): Promise<{ id: string }> {
    return this.commands.execute(
      new RegisterPerson(request.actor, request.body.name, request.body.email),
    );
  }
}
