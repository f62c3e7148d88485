/**
 * The dashboard page's Processes section in a real browser (Debian's chromium through
 * playwright-core), at phone width: an operator sees each process's instances by status, opens
 * an instance (its state, pending deadlines linking to their jobs, its history) and ends it.
 * Skipped without chromium (failed under CI).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { process, seeded } from "../testdata/process_seed.ts";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const missing = !existsSync(executablePath);

Deno.test({
  name: "an operator reads the process instances at 390 px, opens one and ends it",
  ignore: missing && !ci,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const { fetch, dashboard, jobIds, processes } = await seeded();
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

      const section = page.locator("#processes");
      await section.getByRole("heading", { name: "Processes" }).waitFor();
      const row = section.locator(`[data-process="${process}"]`);
      assert.equal(
        await row.getByRole("link", { name: `1 active instances of ${process}` }).textContent(),
        "1",
      );
      assert.equal(
        await row.getByRole("link", { name: `1 completed instances of ${process}` }).textContent(),
        "1",
      );
      await row.getByRole("link", { name: `1 active instances of ${process}` }).click();
      await page.locator('[data-instance="t1/a1"]').waitFor();
      assert.equal(await page.locator("[data-instance]").count(), 1, "the active one of t1 only");
      await page.getByRole("link", { name: "a1", exact: true }).click();

      await page.getByRole("heading", { name: `${process} a1` }).waitFor();
      assert.equal(await page.locator("[data-instance-status]").textContent(), "active");
      const deadlines = page.locator("#deadlines [data-deadline]");
      assert.equal(await deadlines.count(), 2);
      assert.equal(
        await page.locator('[data-deadline="remind"] a').textContent(),
        jobIds[0],
        "the deadline links to its job",
      );
      assert.match(await page.locator("#history").textContent() ?? "", /appointment\.booked/);
      const width = await page.evaluate("document.documentElement.scrollWidth") as number;
      assert.ok(width <= 390, `no sideways scroll of the page (${width}px)`);

      await page.getByRole("button", { name: "End instance" }).click();
      await page.getByRole("button", { name: "End it" }).click();
      await page.getByRole("status").filter({ hasText: "Instance a1 ended" }).waitFor();
      assert.equal(await page.locator("[data-instance-status]").textContent(), "completed");
      assert.equal(await page.getByRole("button", { name: "End instance" }).count(), 0);
      assert.match(await page.locator("#history").textContent() ?? "", /ended by olga/);
      assert.match(await page.locator("#deadlines").textContent() ?? "", /No deadline is pending/);
      const kept = processes.instances().find((i) => i.tenantId === "t1" && i.key === "a1");
      assert.equal(kept?.endedBy, "olga");

      await page.goto(
        `http://127.0.0.1:${server.addr.port}/ops/jobs#/job/${encodeURIComponent(jobIds[0]!)}`,
      );
      await page.locator("[data-job-status]").filter({ hasText: "cancelled" }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      dashboard.close();
      await browser.close();
      await server.shutdown();
    }
  },
});
