import assert from "node:assert/strict";
import { ContractViolation, type OpenApiDocument } from "@kit/http/testing";
import { callers, Client, e2e } from "./e2e.ts";

/** The application's document with one status taken out of one operation: a deliberate drift. */
function without(document: OpenApiDocument, path: string, method: string, status: string) {
  const copy = structuredClone(document) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  delete copy.paths[path]![method]!.responses[status];
  return copy;
}

e2e(
  "every answer of the specs is held to the document: a route answering a status its document omits fails",
  async (app) => {
    const body = { name: "Ada Lovelace", email: "ada@example.org" };
    const registered = await app.client.send("POST", "/people/me", { as: callers.patient, body });
    assert.equal(registered.status, 201);
    // The document says POST /people/me never answers 409: PERSON_REGISTERED breaks it.
    const drifted = new Client(
      app,
      () => without(app.application.http.openapi(), "/people/me", "post", "409"),
    );
    await assert.rejects(
      () => drifted.send("POST", "/people/me", { as: callers.patient, body }),
      (error) =>
        error instanceof ContractViolation && error.status === 409 &&
        /status 409 is not declared for POST \/people\/me \(declared: 201, 400, 401, 403, 408, 413, 415, 422, 503\) \(code PERSON_REGISTERED\)/
          .test(error.message),
    );
    // The real document declares it, under its one status.
    const again = await app.client.send("POST", "/people/me", { as: callers.patient, body });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, "PERSON_REGISTERED");
  },
);
