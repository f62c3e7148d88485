import { Handles } from "@kit/kernel";
import { $errors$ } from "../../../domain/$errorsFile$";
import { $repository$ } from "../../ports/$aggregateKebab$-repository.ts";
import { $name$ } from "./$kebab$.command.ts";

/**
 * Runs $name$: loads the $aggregate$ of the work's tenant, lets it decide, saves it at the
 * version it loaded (`CONCURRENT_UPDATE` when other work saved it meanwhile).
 */
@Handles($name$)
export class $name$Handler {
  constructor(private readonly $variable$s: $repository$) {}

  async handle(command: $name$): Promise<void> {
    const loaded = await this.$variable$s.get(command.$id$);
    if (loaded === undefined) {
      throw $errors$.$notFound$.error(`No $aggregate$ ${command.$id$}`);
    }
    const $variable$ = loaded.state;
    // TODO(domain): let the $aggregate$ decide.
    await this.$variable$s.save($variable$, loaded.version);
  }
}
