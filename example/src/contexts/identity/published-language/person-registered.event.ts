import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** identity.person.registered: a person registered. Its payload is the published contract: change it with a new version. */
export const PersonRegistered = defineIntegrationEvent({
  type: "identity.person.registered",
  version: 1,
  payload: z.object({
    personId: z.string(),
    tenantId: z.string().optional(),
    registeredAt: z.iso.datetime(),
  }),
});
