/**
 * The API docs page in a real browser (Debian's chromium through playwright-core): it loads the
 * OpenAPI document, and "Try it out" sends an authorized request to the running application,
 * all within the page's Content-Security-Policy (a violation, or any console error, fails it).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { startTestPlatform } from "../../src/platform/platform-test.module.ts";
import { serveApplication } from "../../src/platform/http/serve.ts";
import { apiDocsPolicy } from "@kit/http";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const missing = !existsSync(executablePath) || !Deno.env.get("DATABASE_URL");
if (missing && !ci) {
  console.log("skipped: the API docs browser spec needs chromium (apt-get install chromium)");
}

Deno.test({
  name: "the API docs page lists the routes and tries GET /people/me with a bearer token",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform();
    const served = serveApplication(platform.application, { port: 0 });
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      const consoleErrors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      page.on("pageerror", (error) => consoleErrors.push(error.message));
      // Every violation the page meets is kept in the page, to be read at the end.
      await page.addInitScript({
        content: `globalThis.cspViolations = [];
          document.addEventListener("securitypolicyviolation", (event) =>
            globalThis.cspViolations.push(event.effectiveDirective + " " + event.blockedURI));`,
      });
      const violations = () => page.evaluate<string[]>("globalThis.cspViolations");
      const answer = await page.goto(`${served.url}/docs`);
      assert.equal(answer?.headers()["content-security-policy"], apiDocsPolicy);
      await page.locator(".opblock-summary-path", { hasText: "/people/me" }).first().waitFor();
      const paths = await page.locator(".opblock-summary-path").allInnerTexts();
      for (
        const path of ["/appointments", "/calendars/{calendarId}/clearances", "/notifications"]
      ) {
        assert.ok(paths.some((p) => p.replaceAll("\u200b", "") === path), `${path} in ${paths}`);
      }

      const token = await platform.token({
        sub: "dr-who",
        roles: ["practitioner"],
        tenants: ["practice-1"],
      });
      await page.locator("button.authorize").first().click();
      await page.locator(".modal-ux input[type=text]").first().fill(token);
      await page.locator(".modal-ux button.authorize").first().click();
      await page.locator(".modal-ux button.close-modal").first().click();

      const me = page.locator(".opblock-get", {
        has: page.locator(".opblock-summary-path", { hasText: /^\/people\/me$/ }),
      });
      await me.locator(".opblock-summary").click();
      await me.locator("button.try-out__btn").click();
      await me.locator("button.execute").click();
      const status = me.locator(".live-responses-table tbody td.response-col_status").first();
      await status.waitFor();
      assert.equal((await status.innerText()).trim(), "200");
      const body = await me.locator(".live-responses-table .microlight").first().innerText();
      assert.match(body, /"id": "dr-who"/);
      assert.deepEqual(await violations(), [], "the page loads nothing its policy forbids");
      assert.deepEqual(consoleErrors, []);

      // The listener hears a violation: an inline script is refused and reported.
      await page.evaluate(`{
        const script = document.createElement("script");
        script.textContent = "globalThis.inlineRan = true";
        document.body.append(script);
      }`);
      await page.waitForFunction("globalThis.cspViolations.length > 0");
      assert.deepEqual(await violations(), ["script-src-elem inline"]);
      assert.equal(await page.evaluate(() => "inlineRan" in globalThis), false);
    } finally {
      await browser.close();
      await served.shutdown();
      await platform.close();
    }
  },
});
