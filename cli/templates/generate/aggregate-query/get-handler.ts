import { Handles } from "@kit/kernel";
import { $errors$ } from "../../../domain/$errorsFile$";
import { $repository$ } from "../../ports/$aggregateKebab$-repository.ts";
import { $name$, type $name$Result } from "./$kebab$.query.ts";

/** Runs $name$: the $aggregate$ of the id, in the tenants the work reaches. */
@Handles($name$)
export class $name$Handler {
  constructor(private readonly $variable$s: $repository$) {}

  async handle(query: $name$): Promise<$name$Result> {
    const found = await this.$variable$s.get(query.$id$);
    if (found === undefined) {
      throw $errors$.$notFound$.error(`No $aggregate$ ${query.$id$}`);
    }
    return found.state.snapshot();
  }
}
