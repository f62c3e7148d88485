/** @import { Attempt, Job, JobPage, JobStatus } from "./types.d.ts" */
import { api, refusal } from "./api.js";
import { el, hashOf, row, say } from "./dom.js";
import { main, page, statuses } from "./page.js";
import { progressOf } from "./progress.js";
// The jobs: a page of them (searched by name, subject, id or error code, in a queue, by status)
// and one job with its attempts, cancelled or revived by the operator.

/** The fields a search looks in, with their labels. */
const searchFields = [["name", "Name (prefix)"], ["subject", "Subject"], ["id", "Id"], [
  "errorCode",
  "Error code",
]];

/**
 * Shows a page of jobs (the search's parameters in the hash).
 *
 * @param {URLSearchParams} params
 * @param {boolean} focus
 */
export async function showJobs(params, focus) {
  const field = searchFields.find(([f]) => f === params.get("field"))?.[0] ?? "name";
  const q = params.get("q") || "";
  const queue = params.get("queue") || "";
  const status = statuses.find((s) => s === params.get("status")) ?? "";
  const after = params.get("after") || "";
  const query = new URLSearchParams({ limit: "50" });
  if (queue) query.set("queue", queue);
  if (status) query.set("status", status);
  if (q) query.set(field, q);
  if (after) query.set("after", after);
  /** @type {JobPage} */
  const jobs = await api("GET", "/jobs?" + query);
  page.view = {
    kind: "jobs",
    running: new Set(jobs.jobs.filter((j) => j.status === "running").map((j) => j.id)),
  };
  const fieldSelect = el(
    "select",
    { id: "search-field", name: "field" },
    searchFields.map(([f, label]) => el("option", { value: f, selected: f === field }, label)),
  );
  const text = el("input", { id: "search-text", name: "q", value: q, type: "search" });
  const queueInput = el("input", { id: "search-queue", name: "queue", value: queue });
  const statusSelect = el(
    "select",
    { id: "search-status", name: "status" },
    el("option", { value: "" }, "Any"),
    statuses.map((s) => el("option", { value: s, selected: s === status }, s)),
  );
  const form = el(
    "form",
    { class: "search", role: "search" },
    el("label", { for: "search-field" }, "Search by", fieldSelect),
    el("label", { for: "search-text" }, "Search for", text),
    el("label", { for: "search-queue" }, "Queue", queueInput),
    el("label", { for: "search-status" }, "Status", statusSelect),
    el("button", { type: "submit", class: "primary" }, "Search"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = hashOf("/jobs", {
      queue: queueInput.value.trim(),
      status: statusSelect.value,
      field: fieldSelect.value,
      q: text.value.trim(),
    });
  });
  const rows = jobs.jobs.map((job) =>
    el(
      "tr",
      { "data-job-id": job.id },
      el("td", {}, el("a", { href: hashOf("/job/" + encodeURIComponent(job.id)) }, job.id)),
      el("td", {}, job.name),
      el("td", {}, job.subject || ""),
      el("td", { class: "status-" + job.status, "data-status-of": job.id }, job.status),
      el("td", { class: "num" }, job.attempts + "/" + job.maxAttempts),
      el("td", {}, progressOf(job)),
      el("td", {}, lastError(job)),
      el("td", {}, new Date(job.createdAt).toLocaleString()),
    )
  );
  const title = "Jobs" + (queue ? " of " + queue : "") + (status ? ", " + status : "");
  const base = { queue, status, field: q ? field : "", q };
  main.replaceChildren(
    el("p", {}, el("a", { href: "#/" }, "Queues")),
    el("h2", {}, title),
    form,
    jobs.jobs.length === 0 ? el("p", {}, "No jobs match.") : el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Id", "Name", "Subject", "Status", "Attempts", "Progress", "Last error", "Created"]
              .map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    ),
    el(
      "nav",
      { class: "pager", "aria-label": "Pages" },
      after ? el("a", { href: hashOf("/jobs", base) }, "First page") : "",
      jobs.next
        ? el("a", { href: hashOf("/jobs", { ...base, after: jobs.next }) }, "Next page")
        : "",
    ),
  );
  if (focus) main.focus();
}

// A failed job shows its error code and when the last attempt failed; a retrying job (waiting
// after a failure) also when it is tried again (its runAt).
/**
 * @param {Job} job
 */
function lastError(job) {
  if (!job.lastErrorCode) return "";
  const failedAt = job.lastErrorAt ?? (job.status === "dead" ? job.finishedAt : undefined);
  const when = failedAt ? " at " + new Date(failedAt).toLocaleString() : "";
  if (job.status === "waiting") {
    return job.lastErrorCode + " (failed" + when + ", retry at " +
      new Date(job.runAt).toLocaleString() + ")";
  }
  if (job.status === "dead") return job.lastErrorCode + " (died" + when + ")";
  return job.lastErrorCode + (when ? " (failed" + when + ")" : "");
}

/**
 * Shows one job, with the operator's actions on it.
 *
 * @param {string} id
 * @param {boolean} focus
 * @returns {Promise<void>}
 */
export async function showJob(id, focus) {
  /** @type {Job} */
  const job = await api("GET", "/jobs/" + encodeURIComponent(id));
  page.view = { kind: "job", id: job.id, status: job.status };
  const actions = el("div", { class: "actions" });
  /** @type {(label: string, path: string, done: string) => HTMLButtonElement} */
  const act = (label, path, done) =>
    el("button", {
      type: "button",
      class: "danger",
      onclick: async () => {
        // The job is shown as it is now before the outcome is announced, so that whoever
        // hears "revived" reads the new status.
        let outcome = done;
        let failed = false;
        try {
          await api("POST", "/jobs/" + encodeURIComponent(job.id) + path);
        } catch (error) {
          outcome = refusal(error, true);
          failed = true;
        }
        await showJob(job.id, false);
        say(outcome, failed);
        actions.querySelector("button")?.focus();
      },
    }, label);
  if (job.status === "waiting" || job.status === "running") {
    actions.append(act("Cancel job", "/cancellation", "Job " + job.id + " cancelled"));
  }
  if (job.status === "dead") {
    actions.append(act("Revive job", "/revival", "Job " + job.id + " revived: waiting, due now"));
  }
  main.replaceChildren(
    el(
      "p",
      {},
      el("a", { href: "#/" }, "Queues"),
      " · ",
      el("a", { href: hashOf("/jobs", { queue: job.queue }) }, "Jobs of " + job.queue),
    ),
    el("h2", {}, job.name),
    el(
      "dl",
      {},
      row("Id", job.id),
      row(
        "Status",
        el("span", { class: "status-" + job.status, "data-job-status": "" }, job.status),
      ),
      row("Queue", job.queue),
      row(
        "Worker",
        job.workerId === undefined ? undefined : job.workerGone
          ? el(
            "span",
            { class: "status-dead", "data-worker-gone": "" },
            job.workerId + " — gone (its heartbeat expired); the rescuer returns the job to " +
              "waiting once its lease ends",
          )
          : job.workerId,
      ),
      row("Subject", job.subject),
      row("Tenant", job.tenantId),
      row("Enqueued by", job.actor.kind + " " + job.actor.id),
      row("Attempts", job.attempts + " of " + job.maxAttempts),
      row("Last error code", job.lastErrorCode),
      row("Last error at", job.lastErrorAt ? new Date(job.lastErrorAt).toISOString() : undefined),
      row("Progress", el("span", { class: "job-progress" }, progressOf(job))),
      row("Run at", new Date(job.runAt).toISOString()),
      row("Created", new Date(job.createdAt).toISOString()),
      row("Finished", job.finishedAt ? new Date(job.finishedAt).toISOString() : undefined),
      row("Trace id", job.traceId),
      row("Correlation id", job.correlationId),
      row(
        "Checkpoint",
        job.checkpoint === undefined
          ? undefined
          : el("pre", {}, JSON.stringify(job.checkpoint, null, 2)),
      ),
    ),
    actions,
    attemptsSection(job.attemptHistory || []),
  );
  if (focus) main.focus();
}

// The job's last ended attempts, newest first: a table in a region that scrolls sideways on a
// phone and takes the keyboard's focus (so arrow keys scroll it); messages wrap.
/**
 * @param {readonly Attempt[]} history
 */
function attemptsSection(history) {
  const title = el("h3", { id: "attempts-title" }, "Attempts");
  if (history.length === 0) {
    return el("section", { id: "attempts" }, title, el("p", {}, "No attempt has ended yet."));
  }
  const rows = [...history].reverse().map((a) =>
    el(
      "tr",
      { "data-attempt": String(a.attempt) },
      el("th", { scope: "row", class: "num" }, String(a.attempt)),
      el("td", { class: "status-" + a.outcome }, a.outcome),
      el("td", {}, a.errorCode || "—"),
      el("td", { class: "message" }, a.errorMessage || "—"),
      el("td", {
        title: a.startedAt ? "Started " + new Date(a.startedAt).toISOString() : undefined,
      }, el("time", { datetime: a.at }, new Date(a.at).toISOString())),
    )
  );
  // The scrolling region, not the section, carries the name: one landmark, not two.
  return el(
    "section",
    { id: "attempts" },
    title,
    el(
      "div",
      { class: "scroll", tabindex: "0", role: "region", "aria-labelledby": "attempts-title" },
      el(
        "table",
        {},
        el("caption", { class: "skip" }, "Ended attempts, newest first (the last 20 are kept)"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Attempt", "Outcome", "Code", "Message", "Time"]
              .map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    ),
  );
}
