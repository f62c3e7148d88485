/** @import { Activity, QueueActivity } from "./types.d.ts" */
import { api, refusal } from "./api.js";
import { el, hashOf, svg } from "./dom.js";
import { page } from "./page.js";
// The last hour, minute by minute: throughput (jobs succeeded) and the failure rate (failed
// attempts of all attempts that ended), as bar charts drawn in SVG. Each chart is an image
// whose label says what it shows in words; a table lists the minutes that had activity.
/** When the front page's activity was last read (ms since the epoch). */
export let activityLoadedAt = 0;

/**
 * @param {number} n
 * @param {string} one
 * @param {string} many
 */
function plural(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

/**
 * The percentage of attempts that failed.
 *
 * @param {number} failed
 * @param {number} succeeded
 */
function rate(failed, succeeded) {
  return failed + succeeded === 0 ? 0 : Math.round((100 * failed) / (failed + succeeded));
}

/**
 * The time of day of the `i`th minute since `since`.
 *
 * @param {string} since
 * @param {number} bucketMs
 * @param {number} i
 */
function minuteOf(since, bucketMs, i) {
  return new Date(Date.parse(since) + i * bucketMs)
    .toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * A bar chart of `values` (one bar per minute, none for 0), an image labelled in words.
 *
 * @param {readonly number[]} values
 * @param {{ class: string, max: number, label: string, point: (i: number, value: number) => string }} options
 */
function chart(values, options) {
  const width = 2 * values.length;
  const height = 24;
  const top = Math.max(options.max, ...values, 1);
  return svg(
    "svg",
    {
      class: "chart " + options.class,
      viewBox: "0 0 " + width + " " + height,
      preserveAspectRatio: "none",
      role: "img",
      "aria-label": options.label,
      focusable: "false",
    },
    svg("title", {}, options.label),
    svg("line", { class: "axis", x1: 0, x2: width, y1: height - 0.25, y2: height - 0.25 }),
    values.map((value, i) =>
      value <= 0 ? "" : svg("rect", {
        x: 2 * i + 0.2,
        width: 1.6,
        y: height - (height * value) / top,
        height: (height * value) / top,
      }, svg("title", {}, options.point(i, value)))
    ),
  );
}

/**
 * One queue's last hour: a summary, its two charts and the minutes that had activity.
 *
 * @param {QueueActivity} q
 * @param {string} since
 * @param {number} bucketMs
 */
function queueActivity(q, since, bucketMs) {
  const sum = (/** @type {readonly number[]} */ values) => values.reduce((a, b) => a + b, 0);
  const succeeded = sum(q.succeeded);
  const failed = sum(q.failed);
  const dead = sum(q.dead);
  const peak = Math.max(...q.succeeded);
  const rates = q.succeeded.map((s, i) => rate(q.failed[i] ?? 0, s));
  const worst = Math.max(...rates);
  const summary = q.queue + ": " + plural(succeeded, "job", "jobs") + " succeeded, " +
    plural(failed, "attempt", "attempts") + " failed (" + rate(failed, succeeded) + "%), " +
    dead + " dead in the last hour";
  const minutes = q.succeeded.map((_, i) => i)
    .filter((i) => (q.succeeded[i] ?? 0) + (q.failed[i] ?? 0) + (q.dead[i] ?? 0) > 0).reverse();
  return el(
    "figure",
    { class: "activity", "data-activity": q.queue },
    el(
      "figcaption",
      {},
      el("a", { href: hashOf("/jobs", { queue: q.queue }) }, q.queue),
      " ",
      el("span", { class: "activity-summary" }, summary.slice(q.queue.length + 2)),
    ),
    el(
      "div",
      { class: "charts" },
      el(
        "div",
        {},
        el(
          "span",
          { class: "chart-title", "aria-hidden": "true" },
          "Succeeded / min (peak " + peak + ")",
        ),
        chart(q.succeeded, {
          class: "chart-ok",
          max: 0,
          label: "Jobs of " + q.queue + " succeeded per minute, last hour: " + succeeded +
            " in all, at most " + peak + " a minute",
          point: (i, n) =>
            minuteOf(since, bucketMs, i) + ": " + plural(n, "job", "jobs") + " succeeded",
        }),
      ),
      el(
        "div",
        {},
        el(
          "span",
          { class: "chart-title", "aria-hidden": "true" },
          "Failed attempts % (worst " + worst + "%)",
        ),
        chart(rates, {
          class: "chart-fail",
          max: 100,
          label: "Failure rate of " + q.queue + " per minute, last hour: " +
            rate(failed, succeeded) + "% in all, at worst " + worst + "% in a minute",
          point: (i, r) =>
            minuteOf(since, bucketMs, i) + ": " + r + "% of attempts failed (" +
            q.failed[i] + " failed, " + q.succeeded[i] + " succeeded)",
        }),
      ),
    ),
    el(
      "details",
      {},
      el("summary", {}, "Minute by minute"),
      el(
        "div",
        { class: "scroll" },
        el(
          "table",
          {},
          el("caption", { class: "skip" }, "Activity of " + q.queue + " by minute, newest first"),
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col" }, "Minute"),
              ["Succeeded", "Failed", "Dead"].map((h) =>
                el("th", { scope: "col", class: "num" }, h)
              ),
            ),
          ),
          el(
            "tbody",
            {},
            minutes.map((i) =>
              el(
                "tr",
                {},
                el("th", { scope: "row" }, minuteOf(since, bucketMs, i)),
                el("td", { class: "num" }, String(q.succeeded[i])),
                el("td", { class: "num" }, String(q.failed[i])),
                el("td", { class: "num" }, String(q.dead[i])),
              )
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * The front page's "Last hour" section (`GET /activity`).
 *
 * @returns {Promise<HTMLElement>}
 */
export async function activitySection() {
  const section = el(
    "section",
    { "aria-labelledby": "activity-title", id: "activity" },
    el("h2", { id: "activity-title" }, "Last hour"),
  );
  /** @type {Activity} */
  let answer;
  try {
    answer = await api("GET", "/activity");
  } catch (error) {
    section.append(el("p", { class: "status-dead" }, refusal(error, false)));
    return section;
  }
  activityLoadedAt = Date.now();
  if (answer.queues.length === 0) {
    section.append(el("p", {}, "No job succeeded or failed in the last hour."));
    return section;
  }
  section.append(
    ...answer.queues.map((q) => queueActivity(q, answer.since, answer.bucketMs)),
    el(
      "p",
      { class: "help" },
      "A bar per minute, the current minute last. Failed attempts " +
        "count those that made their job dead; a minute without attempts shows no bar.",
    ),
  );
  return section;
}

/** Reads the last hour again and shows it, if the front page is still shown. */
export async function refreshActivity() {
  activityLoadedAt = Date.now();
  const section = await activitySection();
  const shown = document.getElementById("activity");
  if (shown && page.view.kind === "queues") {
    // Keep the minute tables the operator opened open.
    const open = new Set([...shown.querySelectorAll("details[open]")]
      .map((d) => d.closest("[data-activity]")?.getAttribute("data-activity")));
    for (const figure of section.querySelectorAll("[data-activity]")) {
      const details = figure.querySelector("details");
      if (details && open.has(figure.getAttribute("data-activity"))) details.open = true;
    }
    shown.replaceWith(section);
  }
}
