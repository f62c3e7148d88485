/** @import { JobLink, OutboxHandler, ScheduledJob, Worker, Workers } from "./types.d.ts" */
import { api, listSection, refusal } from "./api.js";
import { el, hashOf, say } from "./dom.js";
import { page } from "./page.js";
// The front page's sections read from their own routes: the scheduled jobs (each with its run
// now), the live workers and the outbox's backlog.

/**
 * A schedule's period in words.
 *
 * @param {number | string} value
 */
function every(value) {
  return typeof value === "number" ? value + " ms" : value;
}

/**
 * The front page's "Scheduled" section (`GET /schedules`).
 *
 * @returns {Promise<HTMLElement>}
 */
export function scheduledSection() {
  return listSection(
    "scheduled",
    "Scheduled",
    "/schedules",
    "scheduledJobs",
    "No scheduled jobs are declared.",
    scheduledTable,
  );
}

/**
 * @param {ScheduledJob[]} scheduledJobs
 * @returns {HTMLElement[]}
 */
function scheduledTable(scheduledJobs) {
  const rows = scheduledJobs.map((s) =>
    el(
      "tr",
      { "data-scheduled": s.name },
      el(
        "th",
        { scope: "row" },
        el("a", { href: hashOf("/jobs", { queue: s.queue, field: "name", q: s.name }) }, s.name),
      ),
      el("td", {}, s.queue),
      el("td", {}, every(s.every)),
      el(
        "td",
        {},
        s.lastTick
          ? [
            el(
              "a",
              { href: hashOf("/job/" + encodeURIComponent(s.lastTick.jobId)) },
              new Date(s.lastTick.at).toISOString(),
            ),
            " ",
            el("span", { class: "status-" + s.lastTick.status }, s.lastTick.status),
          ]
          : "—",
      ),
      el("td", {}, new Date(s.nextTick).toISOString()),
      el("td", {}, runNowButton(s)),
    )
  );
  return [
    el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el("caption", { class: "skip" }, "Scheduled jobs"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Name", "Queue", "Every", "Last tick", "Next tick", "Actions"]
              .map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    ),
    el(
      "p",
      { class: "help" },
      "Last tick: the newest job the scheduler enqueued that is still " +
        "kept. Ticks belong to no tenant: only work that reaches every tenant sees them. " +
        "Run now enqueues one more run as your work; the schedule is unchanged.",
    ),
  ];
}

// The live workers (heartbeat not expired) with the jobs each holds, then the running jobs
// whose worker is gone.
// Read again every 5 s while the front page is shown (the event stream does not carry them).
/** When the front page's workers were last read (ms since the epoch). */
export let workersLoadedAt = 0;
/** Reads the workers again and shows them, if the front page is still shown. */
export async function refreshWorkers() {
  workersLoadedAt = Date.now();
  const section = await workersSection();
  const shown = document.getElementById("workers");
  if (shown && page.view.kind === "queues") shown.replaceWith(section);
}

/**
 * The front page's "Workers" section (`GET /workers`).
 *
 * @returns {Promise<HTMLElement>}
 */
export async function workersSection() {
  workersLoadedAt = Date.now();
  const section = el(
    "section",
    { "aria-labelledby": "workers-title", id: "workers" },
    el("h2", { id: "workers-title" }, "Workers"),
  );
  /** @type {Workers} */
  let answer;
  try {
    answer = await api("GET", "/workers");
  } catch (error) {
    section.append(el("p", { class: "status-dead" }, refusal(error, false)));
    return section;
  }
  section.append(
    ...(answer.workers.length === 0
      ? [el("p", {}, "No live worker: no process consumes the queues.")]
      : workersTable(answer.workers)),
  );
  if (answer.orphanedJobs.length > 0) {
    section.append(
      el("h3", {}, "Running jobs whose worker is gone"),
      el(
        "ul",
        {},
        answer.orphanedJobs.map((j) =>
          el(
            "li",
            { "data-orphaned-job": j.id },
            el("a", { href: hashOf("/job/" + encodeURIComponent(j.id)) }, j.name),
            " ",
            el("span", { class: "status-dead" }, "worker " + j.workerId + " gone"),
          )
        ),
      ),
      el("p", { class: "help" }, "The rescuer returns each to waiting once its lease ends."),
    );
  }
  return section;
}

/**
 * Links to jobs, separated by commas (`—` for none).
 *
 * @param {readonly JobLink[]} jobs
 */
function jobLinks(jobs) {
  if (jobs.length === 0) return "—";
  return jobs.flatMap((
    j,
    i,
  ) => [i > 0 ? ", " : "", el("a", { href: hashOf("/job/" + encodeURIComponent(j.id)) }, j.name)]);
}

/**
 * @param {readonly Worker[]} workers
 * @returns {HTMLElement[]}
 */
function workersTable(workers) {
  const now = Date.now();
  return [
    el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el("caption", { class: "skip" }, "Live workers"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Worker", "Host", "Pid", "Queues", "Started", "Last heartbeat", "Running jobs"]
              .map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el(
          "tbody",
          {},
          workers.map((w) =>
            el(
              "tr",
              { "data-worker": w.id },
              el("th", { scope: "row" }, w.id),
              el("td", {}, w.host || "—"),
              el("td", { class: "num" }, w.pid === undefined ? "—" : String(w.pid)),
              el("td", {}, w.queues.join(", ")),
              el("td", {}, new Date(w.startedAt).toISOString()),
              el(
                "td",
                { title: w.heartbeatAt },
                age(Math.max(0, now - Date.parse(w.heartbeatAt))) + " ago",
              ),
              el("td", {}, jobLinks(w.runningJobs)),
            )
          ),
        ),
      ),
    ),
  ];
}

/**
 * A duration in words (s, min, h or d).
 *
 * @param {number} ms
 */
function age(ms) {
  if (ms < 60000) return Math.round(ms / 1000) + " s";
  if (ms < 3600000) return Math.round(ms / 60000) + " min";
  if (ms < 86400000) return (ms / 3600000).toFixed(1) + " h";
  return (ms / 86400000).toFixed(1) + " d";
}

/**
 * The front page's "Outbox" section (`GET /outbox`).
 *
 * @returns {Promise<HTMLElement>}
 */
export function outboxSection() {
  return listSection(
    "outbox",
    "Outbox",
    "/outbox",
    "handlers",
    "Every event is delivered.",
    outboxTable,
  );
}

/**
 * @param {OutboxHandler[]} handlers
 * @returns {HTMLElement[]}
 */
function outboxTable(handlers) {
  return [
    el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el("caption", { class: "skip" }, "Undelivered events by handler"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col" }, "Handler"),
            ["Pending", "Oldest pending", "Retrying", "Dead"]
              .map((h) => el("th", { scope: "col", class: "num" }, h)),
          ),
        ),
        el(
          "tbody",
          {},
          handlers.map((h) =>
            el(
              "tr",
              { "data-handler": h.handler },
              el("th", { scope: "row" }, h.handler),
              el("td", { class: "num" }, String(h.pending)),
              el(
                "td",
                { class: "num", title: h.oldestPendingAt || "" },
                h.oldestPendingAgeMs === undefined ? "—" : age(h.oldestPendingAgeMs) + " ago",
              ),
              el("td", { class: "num" }, String(h.retrying)),
              el("td", { class: "num" + (h.dead > 0 ? " status-dead" : "") }, String(h.dead)),
            )
          ),
        ),
      ),
    ),
  ];
}

/**
 * The button that enqueues one more run of a scheduled job now.
 *
 * @param {ScheduledJob} s
 */
function runNowButton(s) {
  return el("button", {
    type: "button",
    "data-run-scheduled": s.name,
    onclick: async () => {
      let outcome;
      let failed = false;
      try {
        const answer = await api("POST", "/schedules/" + encodeURIComponent(s.name) + "/run");
        outcome = "Enqueued " + s.name + " now: job " + answer.id;
      } catch (error) {
        outcome = refusal(error, true);
        failed = true;
      }
      await page.route(false);
      say(outcome, failed);
      const button = '[data-run-scheduled="' + CSS.escape(s.name) + '"]';
      /** @type {HTMLElement | null} */ (document.querySelector(button))?.focus();
    },
  }, "Run now");
}
