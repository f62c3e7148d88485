import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** $type$: a fact other contexts react to. Its payload is the published contract: change it with a new version. */
export const $name$ = defineIntegrationEvent({
  type: "$type$",
  version: 1,
  payload: z.object({
    // TODO(domain): the facts consumers need, as primitives and ids.
    id: z.string(),
  }),
});
