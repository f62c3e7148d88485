import assert from "node:assert/strict";
import { validatingFetch } from "@kit/http/testing";
import { composePlatform } from "../src/platform/compose-application.ts";
import { swaggerUiAssets } from "../src/platform/http/api-docs.ts";

/**
 * The paths answered with pages (HTML, CSS, script), which the OpenAPI document does not describe
 * (it describes JSON bodies): their answers are not checked. Add a mounted page's between the
 * markers (the jobs dashboard's: `/^\/ops\/jobs(\/assets\/.*)?$/,`).
 */
const pages: readonly RegExp[] = [
  /^\/docs/,
  // kit:begin pages
  // kit:end
];

/** The platform as specs compose it: an answer with a code its route does not declare is a 500. */
function platform() {
  const application = composePlatform({ undeclaredErrors: "refuse", docs: swaggerUiAssets });
  const fetch = validatingFetch(application.http.fetch, () => application.http.openapi(), {
    skip: (request) => pages.some((page) => page.test(new URL(request.url).pathname)),
  });
  return { application, fetch };
}

Deno.test("the platform serves its OpenAPI document (JSON and YAML) and its docs page", async () => {
  const { application } = platform();
  const json = await application.http.fetch(new Request("http://api.test/openapi.json"));
  assert.equal(json.status, 200);
  assert.match(json.headers.get("content-type") ?? "", /^application\/json/);
  assert.deepEqual(await json.json(), application.http.openapi());
  const yaml = await application.http.fetch(new Request("http://api.test/openapi.yaml"));
  assert.equal(yaml.status, 200);
  assert.match(await yaml.text(), /^openapi: /m);
  const docs = await application.http.fetch(new Request("http://api.test/docs"));
  assert.equal(docs.status, 200);
  assert.match(docs.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  assert.match(await docs.text(), /<title>/);
});

Deno.test("every route answers a caller without a token as the OpenAPI document says", async () => {
  const { application, fetch } = platform();
  const document = application.http.openapi() as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  for (const [template, operations] of Object.entries(document.paths)) {
    const path = template.replace(/\{[^}]+\}/g, "x");
    for (const [method, operation] of Object.entries(operations)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const response = await fetch(
        new Request(`http://api.test${path}`, {
          method: method.toUpperCase(),
          ...(operation.requestBody === undefined
            ? {}
            : { headers: { "content-type": "application/json" }, body: "{}" }),
        }),
      );
      await response.body?.cancel();
      assert.ok(
        response.status < 500,
        `${method.toUpperCase()} ${path} answered ${response.status}`,
      );
    }
  }
});
