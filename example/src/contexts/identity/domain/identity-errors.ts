import { defineErrorCodes } from "@kit/kernel";

/**
 * The error codes of the identity context, each with the one HTTP status it answers on every
 * route (see `defineErrorCodes`).
 */
export const identityErrors = defineErrorCodes("identity", {
  ALREADY_INVITED: { status: 409, description: "This email is invited to the practice already" },
  PERSON_REGISTERED: { status: 409, description: "The caller is registered already" },
});
