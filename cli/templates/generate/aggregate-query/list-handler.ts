import { Handles } from "@kit/kernel";
import { $repository$ } from "../../ports/$aggregateKebab$-repository.ts";
import { $name$, type $name$Result } from "./$kebab$.query.ts";

/** Runs $name$: one page of the $plural$ of the tenants the work reaches, by id. */
@Handles($name$)
export class $name$Handler {
  constructor(private readonly $variable$s: $repository$) {}

  async handle(query: $name$): Promise<$name$Result> {
    const found = await this.$variable$s.list(query.page, query.pageSize);
    return {
      items: found.items.map(($variable$) => $variable$.snapshot()),
      total: found.total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }
}
