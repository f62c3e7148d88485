/**
 * Overrides of the HTTP status of error codes, for the whole API: none. Each context declares
 * its codes once, with their status, beside its refusals (`domain/<context>-errors.ts`, with
 * `defineErrorCodes`), and kit's own codes have theirs (`TENANT_REQUIRED` 400,
 * `CONCURRENT_UPDATE` 409, `INVALID_INPUT` 422, ...): the answer and the OpenAPI document read
 * those. Map a code here only to answer another status for it on every route.
 */
export const statusByCode: Readonly<Record<string, number>> = {};
