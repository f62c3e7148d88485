import { Handles } from "@kit/kernel";
import { RegisterPerson } from "./register-person.command.ts";

/** Runs RegisterPerson. */
@Handles(RegisterPerson)
export class RegisterPersonHandler {
  handle(_command: RegisterPerson): Promise<void> {
    // TODO(domain): load the aggregate, let it decide, save it.
    return Promise.resolve();
  }
}
