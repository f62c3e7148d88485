import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineErrorCodes } from "@kit/kernel";
import { defineRoute, httpPlugin, zodSchema } from "../mod.ts";
import { contractValidator, ContractViolation, validatingFetch } from "../testing.ts";

const shopErrors = defineErrorCodes("shop", {
  OUT_OF_STOCK: { status: 409, description: "None left" },
});
const item = zodSchema(z.object({ id: z.string(), price: z.number().int() }), { io: "output" });

/** A route that answers what its query asks: the drifts the validator must catch. */
const drifting = defineRoute({
  method: "GET",
  path: "/items/:id",
  operationId: "readItem",
  request: {
    params: zodSchema(z.object({ id: z.string() })),
    query: zodSchema(z.object({ drift: z.string().optional() })),
  },
  responses: { 200: { description: "The item", body: item } },
  security: [],
  errors: [shopErrors.OUT_OF_STOCK],
}, ({ params, query }) => {
  switch (query.drift) {
    case "status":
      return { status: 202, body: { id: params.id, price: 1 } };
    case "body":
      return { status: 200, body: { id: params.id, price: "one" } };
    case "type":
      return { status: 200, body: "text" };
    case "code":
      throw shopErrors.OUT_OF_STOCK.error("None left");
    default:
      return { status: 200, body: { id: params.id, price: 1 } };
  }
});

function shop() {
  return composeApplication({
    modules: [],
    plugins: { http: httpPlugin({ routes: [drifting] }) },
  }).http;
}

const get = (query = "") => new Request(`http://api.test/items/i1${query}`);

Deno.test("validatingFetch() passes an answer the document declares, and hands it back unread", async () => {
  const http = shop();
  const fetch = validatingFetch(http.fetch, () => http.openapi());
  const response = await fetch(get());
  assert.deepEqual(await response.json(), { id: "i1", price: 1 });
  const refused = await fetch(get("?drift=code"));
  assert.equal(refused.status, 409);
  assert.equal((await refused.json()).code, "OUT_OF_STOCK");
  const unknown = await fetch(new Request("http://api.test/nowhere"));
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("validatingFetch() rejects a drift: an undeclared status, a body breaking its schema, another media type", async () => {
  const http = shop();
  const fetch = validatingFetch(http.fetch, () => http.openapi());
  await assert.rejects(
    () => fetch(get("?drift=status")),
    (error) =>
      error instanceof ContractViolation && error.status === 202 &&
      /GET \/items\/i1 answered 202.*status 202 is not declared for GET \/items\/\{id\} \(declared: 200, 400, 403, 409, 422, 503\)/
        .test(error.message),
  );
  await assert.rejects(() => fetch(get("?drift=body")), /breaks its schema at #\/price/);
  await assert.rejects(
    () => fetch(get("?drift=type")),
    /answers 200 in application\/json, not 'text\/plain'/,
  );
});

Deno.test("contractValidator() names a problem whose code is not listed for its status, or whose status lies", async () => {
  const http = shop();
  const document = http.openapi();
  const validator = contractValidator(document);
  const problem = (status: number, code: string, bodyStatus = status) =>
    new Response(
      JSON.stringify({ type: "urn:kit:problem:x", title: "x", status: bodyStatus, code }),
      { status, headers: { "content-type": "application/problem+json" } },
    );
  assert.deepEqual(await validator.check(get(), problem(409, "OUT_OF_STOCK")), []);
  assert.deepEqual(await validator.check(get(), problem(409, "SLOT_TAKEN")), [
    'the 409 body of GET /items/{id} breaks its schema at #/code: Instance does not match any of ["OUT_OF_STOCK"].',
    "code SLOT_TAKEN is not listed for 409 of GET /items/{id} (listed: OUT_OF_STOCK)",
  ]);
  assert.match(
    (await validator.check(get(), problem(409, "OUT_OF_STOCK", 422))).join(),
    /the problem's status 422 is not the answer's 409/,
  );
  assert.deepEqual(
    await validator.check(new Request("http://api.test/shelves"), problem(404, "NOT_FOUND")),
    [],
  );
  assert.deepEqual(
    await validator.check(new Request("http://api.test/shelves"), problem(500, "X")),
    ["the document describes no path /shelves"],
  );
});
