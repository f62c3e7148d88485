import { Handles } from "@kit/kernel";
import { GetMe, type GetMeResult } from "./get-me.query.ts";

/** Runs GetMe. */
@Handles(GetMe)
export class GetMeHandler {
  handle(_query: GetMe): Promise<GetMeResult> {
    // TODO(domain): read what the query asks.
    return Promise.resolve({ id: "TODO(domain)" });
  }
}
