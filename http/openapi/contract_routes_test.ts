import assert from "node:assert/strict";
import { parse } from "yaml";
import { composeApplication } from "@kit/kernel";
import { apiDocsPolicy, httpPlugin } from "../mod.ts";
import { schedulingApp } from "../testdata/scheduling_app.ts";

const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://api.test${path}`, { headers });

Deno.test("httpPlugin({ openapi }) serves the document in JSON, and in YAML on request, to anyone", async () => {
  const http = schedulingApp();
  const json = await http.fetch(get("/openapi.json", { "x-test-user": ";" }));
  assert.equal(json.status, 200, "a bad credential does not matter");
  assert.equal(json.headers.get("content-type"), "application/json");
  assert.equal(json.headers.get("x-content-type-options"), "nosniff");
  assert.deepEqual(await json.json(), http.openapi());
  for (
    const request of [get("/openapi.json", { accept: "application/yaml" }), get("/openapi.yaml")]
  ) {
    const yaml = await http.fetch(request);
    assert.equal(yaml.headers.get("content-type"), "application/yaml; charset=utf-8");
    assert.deepEqual(parse(await yaml.text()), http.openapi());
  }
  const post = await http.fetch(new Request("http://api.test/openapi.json", { method: "POST" }));
  assert.equal(post.status, 404, "only GET reads the document");
  await post.body?.cancel();
});

Deno.test("httpPlugin({ docs }) serves Swagger UI reading the served document, under its CSP, its assets loaded once", async () => {
  let loads = 0;
  const http = composeApplication({
    modules: [],
    plugins: {
      http: httpPlugin({
        info: { title: "Clinic <API>", version: "1.0.0" },
        openapi: { path: "/api/openapi.json" },
        docs: {
          path: "/api/docs",
          assets: () => {
            loads++;
            return Promise.resolve({ script: "/* bundle */", stylesheet: "/* css */" });
          },
        },
      }),
    },
  }).http;
  const page = await http.fetch(get("/api/docs"));
  assert.equal(page.headers.get("content-security-policy"), apiDocsPolicy);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await page.text();
  assert.match(html, /<title>Clinic &lt;API&gt;<\/title>/);
  assert.match(html, /<script src="\/api\/docs\/swagger-ui-bundle.js"><\/script>/);
  assert.ok(!/<script>/.test(html), "no inline script: the policy allows none");
  const init = await http.fetch(get("/api/docs/init.js"));
  assert.match(await init.text(), /url: "\/api\/openapi.json"/);
  assert.equal(init.headers.get("content-security-policy"), apiDocsPolicy);
  for (
    const [path, body] of [["/swagger-ui-bundle.js", "/* bundle */"], [
      "/swagger-ui.css",
      "/* css */",
    ]]
  ) {
    const asset = await http.fetch(get(`/api/docs${path}`));
    assert.equal(await asset.text(), body);
    assert.equal(asset.headers.get("x-content-type-options"), "nosniff");
  }
  await (await http.fetch(get("/api/docs/swagger-ui.css"))).body?.cancel();
  assert.equal(loads, 1);
  const other = await http.fetch(get("/api/docs/other.js"));
  assert.equal(other.status, 404);
  await other.body?.cancel();
});

Deno.test("httpPlugin() refuses docs without openapi, and a path that is not plain", () => {
  const compose = (options: Parameters<typeof httpPlugin>[0]) =>
    composeApplication({ modules: [], plugins: { http: httpPlugin(options) } });
  assert.throws(
    () => compose({ docs: { assets: { script: "", stylesheet: "" } } }),
    /docs needs openapi/,
  );
  assert.throws(() => compose({ openapi: { path: "openapi.json" } }), /plain path/);
  assert.throws(() => compose({ openapi: { path: "/docs/" } }), /plain path/);
});
