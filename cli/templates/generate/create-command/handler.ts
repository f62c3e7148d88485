import { Handles } from "@kit/kernel";
import { $aggregate$ } from "../../../domain/$aggregateKebab$.ts";
import { $repository$ } from "../../ports/$aggregateKebab$-repository.ts";
import { $name$ } from "./$kebab$.command.ts";

/**
 * Runs $name$: adds a new $aggregate$ for the work's tenant and answers its id (its repository
 * refuses an id the tenant keeps already: `$errors$.$exists$`).
 */
@Handles($name$)
export class $name$Handler {
  constructor(private readonly $variable$s: $repository$) {}

  async handle(command: $name$): Promise<{ id: string }> {
    // TODO(domain): what a new $aggregate$ is given, and what it refuses.
    await this.$variable$s.add($aggregate$.create($commandArguments$));
    return { id: command.$id$ };
  }
}
