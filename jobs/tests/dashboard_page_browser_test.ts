/**
 * The dashboard page's Scheduled and Outbox sections in a real browser (Debian's chromium through
 * playwright-core), at phone width: an operator sees a scheduled job's interval and next tick and
 * runs it now, and reads the outbox's backlog; and a job's attempts with their error codes and
 * times. Skipped without chromium (failed under CI).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium, type Page } from "playwright-core";
import {
  defineModule,
  InMemoryOutbox,
  InMemoryTransactions,
  type IntegrationEvent,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Scheduled, type ScheduledTick } from "../mod.ts";
import { dashboardApp, job, t0 } from "../testdata/dashboard_app.ts";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const missing = !existsSync(executablePath);

/**
 * Serves the dashboard, opens its page at phone width in chromium with an operator's token, runs
 * `check`, then asserts the page logged no error and closes everything.
 */
async function onDashboardPage(
  fetch: (request: Request) => Response | Promise<Response>,
  dashboard: { close(): void },
  check: (page: Page) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, fetch);
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`http://127.0.0.1:${server.addr.port}/ops/jobs`);
    await page.getByLabel("Bearer token").fill("olga;operator;t1");
    await page.getByRole("button", { name: "Use token" }).click();
    await check(page);
    assert.deepEqual(problems, []);
  } finally {
    dashboard.close();
    await browser.close();
    await server.shutdown();
  }
}

@Scheduled({ every: "5m" })
class SendReminders {
  static readonly jobName = "notifications.send-reminders";
  run(_payload: ScheduledTick): Promise<void> {
    return Promise.resolve();
  }
}

Deno.test({
  name: "the page lists the scheduled jobs, runs one now, and shows the outbox's backlog",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const outbox = new InMemoryOutbox();
    outbox.subscribe(new Map([["billing.invoice.sent", ["notifications.notify"]]]));
    const event: IntegrationEvent = {
      id: "e1",
      type: "billing.invoice.sent",
      version: 1,
      occurredAt: "2026-01-01T00:00:00.000Z",
      payload: {},
      tenantId: "t1",
    };
    await new InMemoryTransactions().run((unit) => outbox.append(event, unit));
    const { store, fetch, dashboard } = dashboardApp({
      clock: new TestClock("2026-01-01T00:02:00Z"),
      modules: [defineModule("notifications", { declarations: [SendReminders] })],
      outbox,
    });
    await onDashboardPage(fetch, dashboard, async (page) => {
      const row = page.locator('[data-scheduled="notifications.send-reminders"]');
      await row.waitFor();
      assert.deepEqual(
        (await row.locator("td").allInnerTexts()).slice(0, 4),
        ["notifications", "5m", "—", "2026-01-01T00:05:00.000Z"],
      );
      const handler = page.locator('#outbox [data-handler="notifications.notify"]');
      await handler.waitFor();
      assert.deepEqual(await handler.locator("td").allInnerTexts(), ["1", "2 min ago", "0", "0"]);

      await row.getByRole("button", { name: "Run now" }).click();
      await page.getByRole("status").filter({ hasText: "Enqueued notifications.send-reminders" })
        .waitFor();
      const [job] = await store.jobList();
      assert.equal(job?.name, "notifications.send-reminders");
      assert.match(await page.getByRole("status").innerText(), new RegExp(job!.id));
    });
  },
});

Deno.test({
  name:
    "the page charts each queue's last hour at phone width, in words too, and shows when a retrying job failed and its attempts",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const now = new Date("2026-05-01T08:00:30Z");
    const { store, fetch, dashboard } = dashboardApp({ clock: new TestClock(now) });
    const at = (ms: number) => new Date(now.getTime() + ms);
    const ok = job({ runAt: at(-600_000), maxAttempts: 2 });
    const retrying = job({ runAt: at(-600_000), maxAttempts: 2, subject: "cal-9" });
    for (const j of [ok, retrying]) await store.jobInsert({ job: j });
    const claimed = await store.jobClaim({
      queue: "scheduling",
      limit: 2,
      now: at(-300_000),
      leases: {},
      defaultLeaseMs: 60_000,
    });
    const lease = (id: string) => claimed.find((c) => c.id === id)!.leaseToken;
    await store.jobComplete({ id: ok.id, leaseToken: lease(ok.id), now: at(-240_000) });
    await store.jobFail({
      id: retrying.id,
      leaseToken: lease(retrying.id),
      now: at(-120_000),
      errorCode: "SLOT_TAKEN",
      errorMessage: "taken",
      retryAt: at(3_600_000),
    });
    await onDashboardPage(fetch, dashboard, async (page) => {
      const figure = page.locator('[data-activity="scheduling"]');
      await figure.waitFor();
      assert.equal(
        await figure.locator("figcaption").innerText(),
        "scheduling 1 job succeeded, 1 attempt failed (50%), 0 dead in the last hour",
      );
      const charts = figure.getByRole("img");
      assert.deepEqual(
        await charts.evaluateAll((all) => all.map((c) => c.getAttribute("aria-label"))),
        [
          "Jobs of scheduling succeeded per minute, last hour: 1 in all, at most 1 a minute",
          "Failure rate of scheduling per minute, last hour: 50% in all, at worst 100% in a minute",
        ],
      );
      assert.equal(await charts.first().locator("rect").count(), 1);
      const widths = await charts.evaluateAll((all) =>
        all.map((c) => c.getBoundingClientRect().width)
      );
      for (const width of widths) assert.ok(width > 200 && width <= 390, `chart width ${width}`);
      const overflow = await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      );
      assert.equal(overflow, 0, "nothing is wider than the phone");
      await figure.getByText("Minute by minute").click();
      const minutes = figure.locator("tbody tr");
      assert.equal(await minutes.count(), 2);
      assert.deepEqual(
        await minutes.first().locator("td").allInnerTexts(),
        ["0", "1", "0"],
        "the newest minute with activity first: the failed attempt",
      );

      await figure.getByRole("link", { name: "scheduling" }).click();
      const row = page.locator(`[data-job-id="${retrying.id}"]`);
      await row.waitFor();
      const lastError = await row.locator("td").nth(6).innerText();
      assert.match(lastError, /^SLOT_TAKEN \(failed at .+, retry at .+\)$/);
      await row.getByRole("link", { name: retrying.id }).click();
      await page.getByText("Last error at").waitFor();
      assert.equal(
        await page.locator("dt", { hasText: "Last error at" }).locator(
          "xpath=following-sibling::dd[1]",
        )
          .innerText(),
        "2026-05-01T07:58:30.000Z",
      );
      const attempts = page.getByRole("region", { name: "Attempts" });
      assert.equal(await attempts.getAttribute("tabindex"), "0", "the keyboard can scroll it");
      assert.deepEqual(
        await attempts.locator('tr[data-attempt="1"]').locator("th, td").allInnerTexts(),
        ["1", "retried", "SLOT_TAKEN", "taken", "2026-05-01T07:58:30.000Z"],
      );
      assert.equal(
        await page.evaluate(
          "document.documentElement.scrollWidth - document.documentElement.clientWidth",
        ),
        0,
        "the attempts table scrolls in its region, not the page",
      );
    });
  },
});

Deno.test({
  name:
    "the page lists the live workers with the jobs each holds, and says a running job's worker is gone",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const clock = new TestClock("2026-05-01T08:00:00Z");
    const { store, fetch, dashboard } = dashboardApp({ clock });
    const now = clock.now();
    await store.workerHeartbeat({
      worker: { id: "w-live", host: "box-1", pid: 7, queues: ["scheduling"], startedAt: now },
      now,
      ttlMs: 60_000,
    });
    await store.workerHeartbeat({
      worker: { id: "w-killed", queues: ["scheduling"], startedAt: now },
      now,
      ttlMs: 1_000,
    });
    const held = job();
    const orphan = job();
    for (const [j, workerId] of [[held, "w-live"], [orphan, "w-killed"]] as const) {
      await store.jobInsert({ job: j });
      await store.jobClaim({
        queue: "scheduling",
        limit: 1,
        now,
        leases: {},
        defaultLeaseMs: 60_000,
        workerId,
      });
    }
    clock.advance(5_000);
    await onDashboardPage(fetch, dashboard, async (page) => {
      const worker = page.locator('#workers [data-worker="w-live"]');
      await worker.waitFor();
      const cells = await worker.locator("td").allInnerTexts();
      assert.deepEqual([cells[0], cells[1], cells[2], cells[5]], [
        "box-1",
        "7",
        "scheduling",
        held.name,
      ]);
      assert.equal(await page.locator('#workers [data-worker="w-killed"]').count(), 0);
      const gone = page.locator(`#workers [data-orphaned-job="${orphan.id}"]`);
      await gone.waitFor();
      assert.match(await gone.innerText(), /worker w-killed gone/);
      await gone.getByRole("link").click();
      const said = page.locator("[data-worker-gone]");
      await said.waitFor();
      assert.match(await said.innerText(), /w-killed — gone/);
    });
  },
});

Deno.test({
  name:
    "an operator sees a count change live, revives a queue's dead jobs, searches, cancels a job and keeps the purge, each danger confirmed (or kept), then forgets the token",
  ignore: missing && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { store, fetch, dashboard, dead } = dashboardApp({
      clock: new TestClock(t0),
      events: { intervalMs: 20 },
    });
    const waiting = job({ subject: "cal-1" });
    await store.jobInsert({ job: waiting });
    await dead(job(), "SLOT_TAKEN");
    await onDashboardPage(fetch, dashboard, async (page) => {
      const count = page.locator('[data-count="scheduling|waiting"]');
      await count.waitFor();
      assert.equal(await count.innerText(), "1");
      await page.locator("#live.on").waitFor();
      await store.jobInsert({ job: job() });
      await page.locator('[data-count="scheduling|waiting"]', { hasText: "2" }).waitFor();
      assert.equal(await count.getAttribute("aria-label"), "2 waiting jobs of scheduling");

      await page.getByRole("button", { name: "Revive all dead" }).click();
      await page.getByRole("group", { name: "Revive the 1 dead jobs of scheduling?" })
        .getByRole("button", { name: "Revive them" }).click();
      await page.getByRole("status").filter({ hasText: "Revived 1 dead jobs of scheduling" })
        .waitFor();
      assert.deepEqual((await store.jobList({ status: "dead" })).length, 0);

      await page.getByRole("link", { name: "All jobs, newest first" }).click();
      await page.getByLabel("Search by").selectOption("subject");
      await page.getByLabel("Search for").fill("cal-1");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/field=subject&q=cal-1/);
      await page.getByRole("heading", { name: "Jobs", level: 2, exact: true }).waitFor();
      await page.locator("[data-job-id]").first().waitFor();
      assert.deepEqual(
        await page.locator("[data-job-id]").evaluateAll((rows) =>
          rows.map((r) => r.getAttribute("data-job-id"))
        ),
        [waiting.id],
      );

      await page.getByRole("link", { name: waiting.id }).click();
      await page.getByRole("button", { name: "Cancel job" }).click();
      await page.getByRole("status").filter({ hasText: `Job ${waiting.id} cancelled` }).waitFor();
      assert.equal(await page.locator("[data-job-status]").innerText(), "cancelled");

      await page.getByRole("link", { name: "Queues", exact: true }).click();
      await page.getByLabel("Finished before").fill("2026-05-02");
      await page.getByRole("button", { name: "Purge finished jobs" }).click();
      await page.getByRole("button", { name: "Keep them" }).click();
      assert.equal(
        await page.evaluate("document.activeElement.textContent"),
        "Purge finished jobs",
        "the focus is back on the button",
      );
      assert.equal(
        await page.getByRole("group", { name: /^Delete every succeeded/ }).count(),
        0,
        "kept: nothing asked, nothing purged",
      );

      await page.getByRole("button", { name: "Forget" }).click();
      await page.getByRole("heading", { name: "Give your token" }).waitFor();
      assert.equal(await page.locator("#live").innerText(), "Not connected");
    });
  },
});
