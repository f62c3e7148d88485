/**
 * The dashboard page's Scheduled and Outbox sections in a real browser (Debian's chromium through
 * playwright-core), at phone width: an operator sees a scheduled job's interval and next tick and
 * runs it now, and reads the outbox's backlog. Skipped without chromium (failed under CI).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import {
  defineModule,
  InMemoryOutbox,
  InMemoryTransactions,
  type IntegrationEvent,
  TestClock,
} from "@kit/kernel";
import { Scheduled, type ScheduledTick } from "../mod.ts";
import { dashboardApp } from "./_test_app.ts";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const missing = !existsSync(executablePath);

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
      assert.deepEqual(problems, []);
    } finally {
      dashboard.close();
      await browser.close();
      await server.shutdown();
    }
  },
});
