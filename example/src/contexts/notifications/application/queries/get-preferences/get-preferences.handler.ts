import { Handles } from "@kit/kernel";
import { GetPreferences, type GetPreferencesResult } from "./get-preferences.query.ts";

/** Runs GetPreferences. */
@Handles(GetPreferences)
export class GetPreferencesHandler {
  handle(_query: GetPreferences): Promise<GetPreferencesResult> {
    // TODO(domain): read what the query asks.
    return Promise.resolve({ id: "TODO(domain)" });
  }
}
