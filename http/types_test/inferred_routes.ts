/**
 * The routes of the inferred-form fixtures (`controllerRoute`), shared by the two decorator modes'
 * fixture files (http/types_test/controller_rules_test.ts, experimental_decorators/http_test.ts):
 * the routes and the checks on the types they give hold in either mode; the decorated classes are
 * each file's own.
 *
 * @module
 */
import { z } from "zod";
import * as v from "valibot";
import {
  Authenticated,
  controllerRoute,
  type RequestOf,
  type ResponseOf,
  standardSchema,
  zodSchema,
} from "../mod.ts";

const params = zodSchema(z.object({ appointmentId: z.string() }));

/** A route stating every part and a response body. */
export const cancel = controllerRoute({
  method: "POST",
  path: "/r/:appointmentId",
  guards: [Authenticated],
  params,
  query: zodSchema(z.object({ notify: z.coerce.boolean().default(false) })),
  headers: zodSchema(z.object({ "x-request-id": z.string() })),
  body: zodSchema(z.object({ reason: z.string() })),
  response: { status: 201, body: zodSchema(z.object({ id: z.string() }), { io: "output" }) },
});
/** `cancel` with other params. */
export const otherParams = controllerRoute({
  ...cancel,
  params: zodSchema(z.object({ calendarId: z.string() })),
});
/** `cancel` with another query. */
export const otherQuery = controllerRoute({
  ...cancel,
  query: zodSchema(z.object({ page: z.number() })),
});
/** `cancel` with other headers. */
export const otherHeaders = controllerRoute({
  ...cancel,
  headers: zodSchema(z.object({ "x-request-id": z.number() })),
});
/** `cancel` with another body (valibot). */
export const otherBody = controllerRoute({
  ...cancel,
  body: standardSchema(v.object({ reason: v.number() })),
});
/** A route without a response body. */
export const noBodyAnswered = controllerRoute({
  method: "DELETE",
  path: "/r/:appointmentId",
  guards: [Authenticated],
  params,
  response: { status: 204 },
});

/** True when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
const requestIsInferred: Same<
  Omit<RequestOf<typeof cancel>, "actor" | "context">,
  {
    readonly params: { appointmentId: string };
    readonly query: { notify: boolean };
    readonly headers: { "x-request-id": string };
    readonly body: { reason: string };
  }
> = true;
const answerIsInferred: Same<ResponseOf<typeof cancel>, { id: string }> = true;
const noBodyAnswersVoid: Same<ResponseOf<typeof noBodyAnswered>, void> = true;

/** The type checks, which compile only while the route's types are inferred as stated. */
export const inferredTypes: readonly true[] = [
  requestIsInferred,
  answerIsInferred,
  noBodyAnswersVoid,
];
