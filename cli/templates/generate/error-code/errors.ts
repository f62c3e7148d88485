import { defineErrorCodes } from "@kit/kernel";

/**
 * The error codes of the $context$ context, each with the one HTTP status it answers on every
 * route (or its kind: refusal 422, conflict 409, not-found 404). Routes list these declarations
 * (`errors: [$errors$.CODE]`), handlers throw `$errors$.CODE.error(message)`: the
 * answer and the OpenAPI document read this one status. Add codes with
 * `kit generate error-code $context$ <CODE> --status <4xx> --description "..."`.
 */
export const $errors$ = defineErrorCodes("$context$", {
  // kit:begin error-codes
  // kit:end
});
