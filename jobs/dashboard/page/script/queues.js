/** @import { QueueCounts } from "./types.d.ts" */
import { activitySection } from "./activity.js";
import { api, refusal } from "./api.js";
import { confirmStep, el, hashOf, say } from "./dom.js";
import { main, page, statuses } from "./page.js";
import { processesSection } from "./processes.js";
import { outboxSection, scheduledSection, workersSection } from "./sections.js";
// The front page: the queues' jobs by status (each dead count with its revival), then the last
// hour, the workers, the scheduled jobs, the outbox and the process managers, and the purge.

/**
 * Shows the front page.
 *
 * @param {boolean} focus
 */
export async function showQueues(focus) {
  /** @type {{ queues: QueueCounts[] }} */
  const { queues } = await api("GET", "/queues");
  page.view = { kind: "queues", queues: queues.map((q) => q.queue).join("|") };
  const rows = queues.map((q) =>
    el(
      "tr",
      { "data-queue": q.queue },
      el("th", { scope: "row" }, el("a", { href: hashOf("/jobs", { queue: q.queue }) }, q.queue)),
      statuses.map((s) =>
        el(
          "td",
          { class: "num" },
          el("a", {
            href: hashOf("/jobs", { queue: q.queue, status: s }),
            "data-count": q.queue + "|" + s,
            "aria-label": q[s] + " " + s + " jobs of " + q.queue,
          }, String(q[s])),
        )
      ),
      el("td", {}, reviveAllButton(q)),
    )
  );
  const table = queues.length === 0 ? el("p", {}, "No jobs yet.") : el(
    "div",
    { class: "scroll" },
    el(
      "table",
      {},
      el("caption", { class: "skip" }, "Jobs of each queue by status"),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, "Queue"),
          statuses.map((s) => el("th", { scope: "col", class: "num" }, s)),
          el("th", { scope: "col" }, "Actions"),
        ),
      ),
      el("tbody", {}, rows),
    ),
  );
  const activity = await activitySection();
  const workers = await workersSection();
  const scheduled = await scheduledSection();
  const outbox = document.body.dataset.outbox === "on" ? await outboxSection() : "";
  const processes = document.body.dataset.processes === "on" ? await processesSection() : "";
  main.replaceChildren(
    el("h2", {}, "Queues"),
    table,
    el("p", {}, el("a", { href: hashOf("/jobs") }, "All jobs, newest first")),
    activity,
    workers,
    scheduled,
    outbox,
    processes,
    purgeForm(),
  );
  if (focus) main.focus();
}

/**
 * The button that revives a queue's dead jobs (after a confirmation), if it has any.
 *
 * @param {QueueCounts} q
 */
function reviveAllButton(q) {
  if (q.dead === 0) return "";
  const button = el("button", {
    type: "button",
    class: "danger",
    "data-revive-queue": q.queue,
  }, "Revive all dead");
  button.addEventListener("click", () => {
    const count = document.querySelector('[data-count="' + CSS.escape(q.queue + "|dead") + '"]');
    const dead = count ? count.textContent : String(q.dead);
    confirmStep(
      button,
      "Revive the " + dead + " dead jobs of " + q.queue + "?",
      "Revive them",
      async () => {
        try {
          const answer = await api("POST", "/queues/" + encodeURIComponent(q.queue) + "/revival");
          say(
            "Revived " + answer.revived + " dead jobs of " + q.queue +
              (answer.more ? "; dead jobs are left: revive again" : ""),
          );
        } catch (error) {
          say(refusal(error, true), true);
        }
        await page.route(false);
      },
    );
  });
  return button;
}

/** The form that deletes the finished jobs finished before a day (after a confirmation). */
function purgeForm() {
  const input = el("input", { id: "purge-before", name: "before", type: "date", required: true });
  const form = el(
    "form",
    { class: "purge" },
    el("label", { for: "purge-before" }, "Finished before", input),
    el("button", { type: "submit", class: "danger" }, "Purge finished jobs"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!input.value) return;
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    confirmStep(
      button,
      "Delete every succeeded, dead and cancelled job finished before " + input.value + "?",
      "Purge them",
      async () => {
        try {
          const answer = await api("POST", "/purge", {
            before: new Date(input.value + "T00:00:00Z").toISOString(),
          });
          say("Purged " + answer.purged + " jobs finished before " + input.value);
        } catch (error) {
          say(refusal(error, true), true);
        }
        await page.route(false);
      },
    );
  });
  return el(
    "section",
    { "aria-labelledby": "purge-title" },
    el("h2", { id: "purge-title" }, "Purge"),
    form,
  );
}
