import assert from "node:assert/strict";
import { jobsDashboardPagePolicy } from "../dashboard.ts";
import { dashboardApp, job } from "../testdata/dashboard_app.ts";

const get = (fetch: (request: Request) => Promise<Response>, path: string) =>
  fetch(new Request(`http://kit.test${path}`));

Deno.test("the dashboard page is served to anyone, under its policy, and reveals no job", async () => {
  const { store, fetch } = dashboardApp();
  const secret = job({ subject: "secret-subject" });
  await store.jobInsert({ job: secret });
  const page = await get(fetch, "/ops/jobs");
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(page.headers.get("content-security-policy"), jobsDashboardPagePolicy);
  assert.equal(page.headers.get("x-content-type-options"), "nosniff");
  const html = await page.text();
  assert.ok(!html.includes(secret.id) && !html.includes("secret-subject"));
  assert.match(html, /<script src="\/ops\/jobs\/assets\/dashboard\.js" defer><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="\/ops\/jobs\/assets\/dashboard\.css">/);
  assert.doesNotMatch(html, /<script>|<style|\sstyle=|\son[a-z]+=/, "no inline script or style");
  assert.match(html, /<label for="token">Bearer token<\/label>/);
  for (
    const [path, type] of [
      ["/ops/jobs/assets/dashboard.css", "text/css; charset=utf-8"],
      ["/ops/jobs/assets/dashboard.js", "text/javascript; charset=utf-8"],
    ]
  ) {
    const asset = await get(fetch, path!);
    assert.equal(asset.status, 200, path);
    assert.equal(asset.headers.get("content-type"), type);
    assert.equal(asset.headers.get("content-security-policy"), jobsDashboardPagePolicy);
    assert.ok((await asset.text()).length > 1000, path);
  }
});

Deno.test("jobsDashboardPagePolicy allows only the page's own script, style and API calls", () => {
  const directives = new Map(
    jobsDashboardPagePolicy.split("; ").map((d) => [d.split(" ")[0], d.slice(d.indexOf(" ") + 1)]),
  );
  assert.equal(directives.get("default-src"), "'none'");
  assert.equal(directives.get("script-src"), "'self'");
  assert.equal(directives.get("style-src"), "'self'");
  assert.equal(directives.get("connect-src"), "'self'");
  assert.doesNotMatch(jobsDashboardPagePolicy, /unsafe-inline|unsafe-eval/);
});
