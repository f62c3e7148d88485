import {
  acceptedSchema,
  Controller,
  controllerRoute,
  type RequestOf,
  type ResponseOf,
  zodSchema,
} from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { textSchema } from "../../../../shared-kernel/schemas.ts";
import { RegisterPerson } from "../../application/commands/register-person/register-person.command.ts";
import { People } from "./people.routes.ts";
import { identityErrors } from "../../domain/identity-errors.ts";

const profile = z.object({ name: textSchema(200), email: z.email().max(254) });

const route = controllerRoute({
  group: People,
  method: "POST",
  path: "/me",
  permissions: [RegisterPerson],
  summary: "Register my profile",
  body: zodSchema(profile),
  response: { status: 201, description: "Registered", body: acceptedSchema },
  errors: ["FORBIDDEN", identityErrors.PERSON_REGISTERED],
});

/** POST /people/me: the caller registers their profile. */
@Controller(route)
export class RegisterPersonController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.commands.execute(
      new RegisterPerson(request.actor, request.body.name, request.body.email),
    );
  }
}
