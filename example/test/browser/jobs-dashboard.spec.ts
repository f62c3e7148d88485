/**
 * The jobs dashboard in a real browser (Debian's chromium through playwright-core), at phone
 * width: an operator gives their token, follows a clearance's progress bar while the worker runs
 * it (held on a locked appointment, so that the bar stops at 2 of 5 until the test lets it go),
 * revives a dead job; a patient's token meets the 403 state. All within the page's
 * Content-Security-Policy. Screenshots go to `.kit/artifacts/`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { chromium, type Page } from "playwright-core";
import { userActor } from "@kit/kernel";
import { jobsDashboardPagePolicy } from "@kit/jobs/dashboard";
import { startTestPlatform } from "../../src/platform/platform-test.module.ts";
import { serveApplication } from "../../src/platform/http/serve.ts";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const missing = !existsSync(executablePath) || !Deno.env.get("DATABASE_URL");
if (missing && !ci) {
  console.log("skipped: the jobs dashboard browser spec needs chromium and DATABASE_URL");
}

const artifacts = new URL("../../.kit/artifacts/", import.meta.url).pathname;
const monday = (hhmm: string) => `2026-03-02T${hhmm}:00.000Z`;

/** Opens a page that records its CSP violations and console errors. */
async function watchedPage(browser: Awaited<ReturnType<typeof chromium.launch>>) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  await page.addInitScript({
    content: `globalThis.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        globalThis.cspViolations.push(event.effectiveDirective + " " + event.blockedURI));`,
  });
  return { page, problems };
}

/** Waits until the job's progress bar shows `value` of `max`. */
function barAt(page: Page, jobId: string, value: number, max: number) {
  return page.locator(`progress[data-progress-of="${jobId}"][value="${value}"][max="${max}"]`)
    .waitFor();
}

Deno.test({
  name:
    "the jobs dashboard follows a clearance's progress live, revives a dead job, and shows 403 to a patient",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform(); // Monday 2026-03-02 08:00 UTC
    const served = serveApplication(platform.application, { port: 0 });
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    const holder = await platform.db.sql.reserve();
    try {
      const tenants = ["practice-1"];
      const staff = await platform.token({ sub: "dr-who", roles: ["practitioner"], tenants });
      const desk = await platform.token({ sub: "rec-1", roles: ["receptionist"], tenants });
      const operator = await platform.token({ sub: "ops-1", roles: ["operator"], tenants });
      const patient = await platform.token({ sub: "pat-1", roles: ["patient"], tenants });
      const send = async (token: string, method: string, path: string, body?: unknown) => {
        const response = await fetch(served.url + path, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: await response.json().catch(() => ({})) };
      };
      assert.equal((await send(staff, "PUT", "/calendars/cal-1")).status, 201);
      assert.equal(
        (await send(staff, "PUT", "/calendars/cal-1/appointment-types/checkup", {
          name: "Check-up",
          durationMinutes: 30,
        })).status,
        200,
      );
      const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
        weekday,
        opens: "09:00",
        closes: "17:00",
      }));
      assert.equal(
        (await send(staff, "PUT", "/calendars/cal-1/opening-hours", { windows })).status,
        204,
      );
      const appointments: string[] = [];
      for (const [i, hhmm] of ["10:00", "10:30", "11:00", "11:30", "12:00"].entries()) {
        const booked = await send(desk, "POST", "/appointments/", {
          calendarId: "cal-1",
          appointmentTypeId: "checkup",
          startsAt: monday(hhmm),
          patientId: `p${i}`,
        });
        assert.equal(booked.status, 201, JSON.stringify(booked.body));
        appointments.push(booked.body.id);
      }

      // A dead job of another queue (in identity's schema), as a failed last attempt leaves it.
      const store = platform.application.backgroundJobs.store;
      const deadId = crypto.randomUUID();
      const now = platform.clock.now();
      await store.jobInsert({
        job: {
          id: deadId,
          name: "identity.send-invitation",
          queue: "identity",
          payload: { invoiceId: "inv-7" },
          actor: userActor("dr-who", { roles: ["practitioner"], tenants }),
          tenantId: "practice-1",
          correlationId: crypto.randomUUID(),
          subject: "inv-7",
          maxAttempts: 1,
          runAt: now,
          createdAt: now,
        },
      });
      const [claimed] = await store.jobClaim({
        queue: "identity",
        limit: 1,
        now,
        leases: {},
        defaultLeaseMs: 60_000,
      });
      assert.equal(claimed?.id, deadId);
      await store.jobFail({
        id: deadId,
        leaseToken: claimed!.leaseToken,
        now,
        errorCode: "SMTP_DOWN",
        errorMessage: "the mail server is down",
      });

      const posted = await send(staff, "POST", "/calendars/cal-1/clearances", {
        from: monday("00:00"),
        until: "2026-03-03T00:00:00.000Z",
        reason: "flood",
      });
      assert.equal(posted.status, 202, JSON.stringify(posted.body));
      const clearance = posted.body.id as string;

      // The operator opens the page, gives the token, and goes from the queues to the job.
      await mkdir(artifacts, { recursive: true });
      const { page, problems } = await watchedPage(browser);
      const answer = await page.goto(`${served.url}/ops/jobs`);
      assert.equal(answer?.headers()["content-security-policy"], jobsDashboardPagePolicy);
      await page.getByLabel("Bearer token").fill(operator);
      await page.getByRole("button", { name: "Use token" }).click();
      await page.getByText("Live", { exact: true }).waitFor();
      // Under the queues: the scheduled jobs (the example declares none) and the outbox's
      // backlog, the bookings' events waiting for the relay (not started here).
      await page.getByRole("heading", { name: "Scheduled" }).waitFor();
      await page.getByText("No scheduled jobs are declared.").waitFor();
      await page.getByRole("heading", { name: "Outbox" }).waitFor();
      assert.ok(await page.locator("#outbox [data-handler]").count() > 0);
      await page.screenshot({ path: `${artifacts}jobs-dashboard-queues.png`, fullPage: true });
      await page.getByRole("link", { name: "1 waiting jobs of scheduling" }).click();
      await page.getByRole("link", { name: clearance }).click();
      await page.getByRole("heading", { name: "scheduling.clear-calendar" }).waitFor();
      assert.equal(await page.locator("[data-job-status]").innerText(), "waiting");

      // Hold the third appointment: the worker cancels two, reports 2 of 5, then waits on it.
      await holder`begin`;
      await holder`select 1 from scheduling.appointments where id = ${appointments[2]!} for update`;
      const ran = platform.application.backgroundJobs.runDue();
      await barAt(page, clearance, 2, 5);
      await page.locator("[data-job-status]").filter({ hasText: "running" }).waitFor();
      await page.screenshot({ path: `${artifacts}jobs-dashboard-progress.png`, fullPage: true });
      await holder`rollback`;
      assert.equal(await ran, 1);
      await page.locator("[data-job-status]", { hasText: "succeeded" }).waitFor();
      await barAt(page, clearance, 5, 5);
      await page.screenshot({ path: `${artifacts}jobs-dashboard-succeeded.png`, fullPage: true });

      // Back to the queues: the last hour in words and charts, then the dead job of identity, revived.
      await page.getByRole("link", { name: "Queues" }).click();
      await page.locator('[data-activity="identity"] figcaption', {
        hasText: "0 jobs succeeded, 1 attempt failed (100%), 1 dead in the last hour",
      }).waitFor();
      await page.locator('[data-activity="scheduling"] figcaption', {
        hasText: "1 job succeeded, 0 attempts failed (0%), 0 dead in the last hour",
      }).waitFor();
      assert.equal(await page.locator('[data-activity] svg[role="img"]').count(), 4);
      await page.screenshot({ path: `${artifacts}jobs-dashboard-last-hour.png`, fullPage: true });
      await page.getByRole("link", { name: "1 dead jobs of identity" }).click();
      // The list tells when a dead job failed (a retrying one: also when it is tried again).
      await page.locator(`[data-job-id="${deadId}"]`).getByText(/SMTP_DOWN \(died at /).waitFor();
      await page.getByRole("link", { name: deadId }).click();
      // The job page lists its attempts: the one that failed, with its code, message and time.
      const attempt = page.getByRole("region", { name: "Attempts" }).locator(
        'tr[data-attempt="1"]',
      );
      await attempt.waitFor();
      assert.deepEqual(await attempt.locator("th, td").allInnerTexts(), [
        "1",
        "dead",
        "SMTP_DOWN",
        "the mail server is down",
        now.toISOString(),
      ]);
      await page.screenshot({ path: `${artifacts}jobs-dashboard-dead-job.png`, fullPage: true });
      await page.getByRole("button", { name: "Revive job" }).click();
      await page.getByRole("status").filter({ hasText: "revived" }).waitFor();
      await page.locator("[data-job-status]").filter({ hasText: "waiting" }).waitFor();
      assert.equal((await store.jobFind({ id: deadId, reach: {} }))?.status, "waiting");
      assert.deepEqual(await page.evaluate<string[]>("globalThis.cspViolations"), []);
      assert.deepEqual(problems, []);

      // A patient's token: the clear 403 state, and nothing of the jobs.
      const refused = await watchedPage(browser);
      await refused.page.goto(`${served.url}/ops/jobs`);
      await refused.page.getByLabel("Bearer token").fill(patient);
      await refused.page.getByRole("button", { name: "Use token" }).click();
      await refused.page.getByRole("alert").filter({ hasText: "403: you may not read jobs" })
        .waitFor();
      assert.equal(await refused.page.locator("[data-count]").count(), 0);
      await refused.page.screenshot({ path: `${artifacts}jobs-dashboard-403.png`, fullPage: true });
      assert.deepEqual(await refused.page.evaluate<string[]>("globalThis.cspViolations"), []);
      // The browser logs each refused fetch; nothing else went wrong.
      assert.deepEqual(refused.problems.filter((p) => !/status of 403/.test(p)), []);
    } finally {
      holder.release();
      await browser.close();
      await served.shutdown();
      await platform.close();
    }
  },
});
