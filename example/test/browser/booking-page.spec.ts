/**
 * The booking page in a real browser (Debian's chromium through playwright-core): a patient
 * pastes their token, lists the free slots of a day, books one, and sees it leave the list; all
 * within the page's Content-Security-Policy. Screenshots go to `.kit/artifacts/`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { chromium, type Locator } from "playwright-core";
import { startTestPlatform } from "../../src/platform/platform-test.module.ts";
import { serveApplication } from "../../src/platform/http/serve.ts";
import { bookingPagePolicy } from "../../src/platform/http/booking-page.ts";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const missing = !existsSync(executablePath) || !Deno.env.get("DATABASE_URL");
if (missing && !ci) {
  console.log("skipped: the booking page browser spec needs chromium and DATABASE_URL");
}
/** The instants the slot buttons book, in order. */
function startsOf(slots: Locator): Promise<string[]> {
  return slots.evaluateAll((buttons) =>
    buttons.map((b) => (b as unknown as { dataset: Record<string, string> }).dataset.startsAt!)
  );
}

const artifacts = new URL("../../.kit/artifacts/", import.meta.url).pathname;

Deno.test({
  name: "the booking page lists a day's free slots, books one, and the booked slot leaves the list",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform(); // Monday 2026-03-02 08:00 UTC
    const served = serveApplication(platform.application, { port: 0 });
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    try {
      const staff = await platform.token({
        sub: "dr-who",
        roles: ["practitioner"],
        tenants: ["practice-1"],
      });
      const send = (method: string, path: string, body?: unknown) =>
        fetch(served.url + path, {
          method,
          headers: { authorization: `Bearer ${staff}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }).then(async (r) => (await r.body?.cancel(), r.status));
      assert.equal(await send("PUT", "/calendars/cal-1"), 201);
      assert.equal(
        await send("PUT", "/calendars/cal-1/appointment-types/checkup", {
          name: "Check-up",
          durationMinutes: 30,
        }),
        200,
      );
      assert.equal(
        await send("PUT", "/calendars/cal-1/opening-hours", {
          windows: [{ weekday: 2, opens: "09:00", closes: "12:00" }],
        }),
        204,
      );
      const patient = await platform.token({
        sub: "pat-1",
        roles: ["patient"],
        tenants: ["practice-1"],
      });

      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const problems: string[] = [];
      page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
      page.on("pageerror", (error) => problems.push(error.message));
      await page.addInitScript({
        content: `globalThis.cspViolations = [];
          document.addEventListener("securitypolicyviolation", (event) =>
            globalThis.cspViolations.push(event.effectiveDirective + " " + event.blockedURI));`,
      });
      const answer = await page.goto(`${served.url}/book`);
      assert.equal(answer?.headers()["content-security-policy"], bookingPagePolicy);
      await page.getByLabel("Your token").fill(patient);
      await page.getByLabel("Day").fill("2026-03-03");
      await page.getByRole("button", { name: "Find free slots" }).click();
      await page.getByRole("status").filter({ hasText: "free slots" }).waitFor();
      const slots = page.getByRole("list", { name: "Free slots" }).getByRole("button");
      const before = await startsOf(slots);
      // Tuesday 09:00-12:00 UTC, 30-minute check-ups on the 15-minute grid: 09:00 to 11:30.
      assert.equal(before.length, 11);
      assert.equal(before[0], "2026-03-03T09:00:00.000Z");
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: `${artifacts}booking-page-slots.png`, fullPage: true });

      await slots.nth(4).click(); // 10:00
      await page.getByRole("status").filter({ hasText: "Booked" }).waitFor();
      const after = await startsOf(slots);
      assert.equal(before[4], "2026-03-03T10:00:00.000Z");
      // The booked 10:00 and the starts whose half hour would overlap it (09:45, 10:15) left.
      assert.deepEqual(
        after,
        before.filter((s) => !["09:45", "10:00", "10:15"].some((t) => s!.includes(`T${t}`))),
      );
      await page.screenshot({ path: `${artifacts}booking-page-booked.png`, fullPage: true });
      const [row] = await platform.db
        .sql`select patient_id, starts_at from scheduling.appointments`;
      assert.equal(row?.patient_id, "pat-1");
      assert.deepEqual(await page.evaluate<string[]>("globalThis.cspViolations"), []);
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await served.shutdown();
      await platform.close();
    }
  },
});
