import { activityJs } from "./activity_js.ts";
import { processesJs } from "./processes_js.ts";

/**
 * The dashboard page's script (plain JavaScript, served as is, no build): reads the JSON routes
 * with the operator's token (kept in `sessionStorage`, sent as `Authorization: Bearer`), renders
 * the queues (with each queue's last hour as inline SVG bar charts, each with a text
 * alternative), pages of jobs and one job with text nodes only (no HTML from data), acts on jobs,
 * and follows the event stream with `fetch()` (so the header is sent) to update counts and
 * progress bars as jobs move.
 */
export const dashboardJs = `"use strict";
(() => {
  const prefix = document.body.dataset.prefix || "";
  const tokenKey = "kit.jobs.token";
  const statuses = ["waiting", "running", "succeeded", "dead", "cancelled"];
  const searchFields = [["name", "Name (prefix)"], ["subject", "Subject"], ["id", "Id"],
    ["errorCode", "Error code"]];
  const $ = (id) => document.getElementById(id);
  const main = $("main");
  let token = sessionStorage.getItem(tokenKey) || "";
  let stream;
  let view = { kind: "none" };
  $("token").value = token;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== undefined && value !== null) node.setAttribute(name, String(value));
    }
    for (const child of children.flat()) {
      if (child !== undefined && child !== null && child !== false) {
        node.append(child instanceof Node ? child : String(child));
      }
    }
    return node;
  }

  function say(text, error) {
    const status = $("status");
    status.textContent = text;
    status.classList.toggle("error", Boolean(error));
  }

  function live(text, on) {
    $("live").textContent = text;
    $("live").classList.toggle("on", Boolean(on));
  }

  class Refused extends Error {
    constructor(status, problem) {
      super(problem.detail || problem.title || "HTTP " + status);
      this.status = status;
      this.code = problem.code;
    }
  }

  async function api(method, path, body) {
    const headers = { accept: "application/json" };
    if (token) headers.authorization = "Bearer " + token;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(prefix + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try {
      data = await response.json();
    } catch {
      data = {};
    }
    if (!response.ok) throw new Refused(response.status, data);
    return data;
  }

  function refusal(error, acting) {
    if (!(error instanceof Refused)) return "The jobs API could not be reached: " + error.message;
    if (error.status === 401) {
      return "401: give a valid bearer token (it is missing, malformed or expired)";
    }
    if (error.status === 403 && error.code === "FORBIDDEN") {
      return acting ? "403: you may not operate jobs (" + error.message + ")"
        : "403: you may not read jobs";
    }
    return error.status + (error.code ? " " + error.code : "") + ": " + error.message;
  }

  function showRefused(error) {
    const text = refusal(error, false);
    say(text, true);
    main.replaceChildren(el("section", { class: "refused", role: "alert" },
      el("h2", {}, text),
      el("p", {}, error instanceof Refused && error.status === 403
        ? "Your token is valid, but its roles do not grant the permission jobs.read. Ask for a role that does (an operator's), then give its token above."
        : "Give an operator's bearer token above.")));
  }

  function percent(progress) {
    if (progress.total === undefined) return progress.done + " done";
    return progress.done + " of " + progress.total;
  }

  function setProgress(bar, progress) {
    if (progress.total !== undefined && progress.total > 0) {
      bar.max = progress.total;
      bar.value = Math.min(progress.done, progress.total);
    } else if (progress.total === 0) {
      bar.max = 1;
      bar.value = 1;
    } else {
      bar.removeAttribute("value");
    }
    bar.textContent = percent(progress);
    const label = bar.nextElementSibling;
    if (label && label.classList.contains("progress-text")) label.textContent = percent(progress);
  }

  function progressOf(job) {
    const bar = el("progress", { "data-progress-of": job.id, "aria-label": "Progress of " + job.id });
    setProgress(bar, job.progress);
    return [bar, " ", el("span", { class: "progress-text" }, percent(job.progress))];
  }

  function hashOf(path, params) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params || {})) {
      if (value !== undefined && value !== "") query.set(name, value);
    }
    const text = query.toString();
    return "#" + path + (text ? "?" + text : "");
  }

  function confirmStep(where, question, yes, act) {
    const keep = where.cloneNode(true);
    const parent = where.parentNode;
    let box;
    const restore = () => {
      box.replaceWith(keep);
      keep.querySelector("button")?.focus();
    };
    box = el("div", { class: "confirm", role: "group", "aria-label": question },
      el("span", {}, question),
      el("button", { type: "button", class: "danger", onclick: act }, yes),
      el("button", { type: "button", onclick: restore }, "Keep them"));
    parent.replaceChild(box, where);
    box.querySelector("button").focus();
  }

  // Views ------------------------------------------------------------------------------------

  async function showQueues(focus) {
    const { queues } = await api("GET", "/queues");
    view = { kind: "queues", queues: queues.map((q) => q.queue).join("|") };
    const rows = queues.map((q) =>
      el("tr", { "data-queue": q.queue },
        el("th", { scope: "row" }, el("a", { href: hashOf("/jobs", { queue: q.queue }) }, q.queue)),
        statuses.map((s) =>
          el("td", { class: "num" },
            el("a", {
              href: hashOf("/jobs", { queue: q.queue, status: s }),
              "data-count": q.queue + "|" + s,
              "aria-label": q[s] + " " + s + " jobs of " + q.queue,
            }, String(q[s])))
        ),
        el("td", {}, reviveAllButton(q)))
    );
    const table = queues.length === 0
      ? el("p", {}, "No jobs yet.")
      : el("div", { class: "scroll" }, el("table", {},
        el("caption", { class: "skip" }, "Jobs of each queue by status"),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Queue"),
          statuses.map((s) => el("th", { scope: "col", class: "num" }, s)),
          el("th", { scope: "col" }, "Actions"))),
        el("tbody", {}, rows)));
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

  ${activityJs}
  ${processesJs}
  function every(value) {
    return typeof value === "number" ? value + " ms" : value;
  }

  // A section of the front page, filled from the list "key" that GET "path" answers: the
  // refusal when the read is refused, "empty" when the list is, else what fill(list) answers.
  async function listSection(id, title, path, key, empty, fill) {
    const section = el("section", { "aria-labelledby": id + "-title", id },
      el("h2", { id: id + "-title" }, title));
    let list;
    try {
      list = (await api("GET", path))[key];
    } catch (error) {
      section.append(el("p", { class: "status-dead" }, refusal(error, false)));
      return section;
    }
    section.append(...(list.length === 0 ? [el("p", {}, empty)] : fill(list)));
    return section;
  }

  function scheduledSection() {
    return listSection("scheduled", "Scheduled", "/schedules", "scheduledJobs",
      "No scheduled jobs are declared.", scheduledTable);
  }

  function scheduledTable(scheduledJobs) {
    const rows = scheduledJobs.map((s) =>
      el("tr", { "data-scheduled": s.name },
        el("th", { scope: "row" }, el("a", { href: hashOf("/jobs", { queue: s.queue, field: "name", q: s.name }) }, s.name)),
        el("td", {}, s.queue),
        el("td", {}, every(s.every)),
        el("td", {}, s.lastTick
          ? [el("a", { href: hashOf("/job/" + encodeURIComponent(s.lastTick.jobId)) },
            new Date(s.lastTick.at).toISOString()), " ",
            el("span", { class: "status-" + s.lastTick.status }, s.lastTick.status)]
          : "—"),
        el("td", {}, new Date(s.nextTick).toISOString()),
        el("td", {}, runNowButton(s)))
    );
    return [el("div", { class: "scroll" }, el("table", {},
      el("caption", { class: "skip" }, "Scheduled jobs"),
      el("thead", {}, el("tr", {},
        ["Name", "Queue", "Every", "Last tick", "Next tick", "Actions"]
          .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows))),
      el("p", { class: "help" }, "Last tick: the newest job the scheduler enqueued that is still " +
        "kept. Ticks belong to no tenant: only work that reaches every tenant sees them. " +
        "Run now enqueues one more run as your work; the schedule is unchanged.")];
  }

  // The live workers (heartbeat not expired) with the jobs each holds, then the running jobs
  // whose worker is gone.
  // Read again every 5 s while the front page is shown (the event stream does not carry them).
  let workersLoadedAt = 0;
  async function refreshWorkers() {
    workersLoadedAt = Date.now();
    const section = await workersSection();
    const shown = document.getElementById("workers");
    if (shown && view.kind === "queues") shown.replaceWith(section);
  }

  async function workersSection() {
    workersLoadedAt = Date.now();
    const section = el("section", { "aria-labelledby": "workers-title", id: "workers" },
      el("h2", { id: "workers-title" }, "Workers"));
    let answer;
    try {
      answer = await api("GET", "/workers");
    } catch (error) {
      section.append(el("p", { class: "status-dead" }, refusal(error, false)));
      return section;
    }
    section.append(...(answer.workers.length === 0
      ? [el("p", {}, "No live worker: no process consumes the queues.")]
      : workersTable(answer.workers)));
    if (answer.orphanedJobs.length > 0) {
      section.append(el("h3", {}, "Running jobs whose worker is gone"),
        el("ul", {}, answer.orphanedJobs.map((j) =>
          el("li", { "data-orphaned-job": j.id },
            el("a", { href: hashOf("/job/" + encodeURIComponent(j.id)) }, j.name), " ",
            el("span", { class: "status-dead" }, "worker " + j.workerId + " gone")))),
        el("p", { class: "help" }, "The rescuer returns each to waiting once its lease ends."));
    }
    return section;
  }

  function jobLinks(jobs) {
    if (jobs.length === 0) return "—";
    return jobs.flatMap((j, i) => [i > 0 ? ", " : "",
      el("a", { href: hashOf("/job/" + encodeURIComponent(j.id)) }, j.name)]);
  }

  function workersTable(workers) {
    const now = Date.now();
    return [el("div", { class: "scroll" }, el("table", {},
      el("caption", { class: "skip" }, "Live workers"),
      el("thead", {}, el("tr", {},
        ["Worker", "Host", "Pid", "Queues", "Started", "Last heartbeat", "Running jobs"]
          .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, workers.map((w) =>
        el("tr", { "data-worker": w.id },
          el("th", { scope: "row" }, w.id),
          el("td", {}, w.host || "—"),
          el("td", { class: "num" }, w.pid === undefined ? "—" : String(w.pid)),
          el("td", {}, w.queues.join(", ")),
          el("td", {}, new Date(w.startedAt).toISOString()),
          el("td", { title: w.heartbeatAt },
            age(Math.max(0, now - Date.parse(w.heartbeatAt))) + " ago"),
          el("td", {}, jobLinks(w.runningJobs)))))))];
  }

  function age(ms) {
    if (ms < 60000) return Math.round(ms / 1000) + " s";
    if (ms < 3600000) return Math.round(ms / 60000) + " min";
    if (ms < 86400000) return (ms / 3600000).toFixed(1) + " h";
    return (ms / 86400000).toFixed(1) + " d";
  }

  function outboxSection() {
    return listSection("outbox", "Outbox", "/outbox", "handlers", "Every event is delivered.",
      outboxTable);
  }

  function outboxTable(handlers) {
    return [el("div", { class: "scroll" }, el("table", {},
      el("caption", { class: "skip" }, "Undelivered events by handler"),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, "Handler"),
        ["Pending", "Oldest pending", "Retrying", "Dead"]
          .map((h) => el("th", { scope: "col", class: "num" }, h)))),
      el("tbody", {}, handlers.map((h) =>
        el("tr", { "data-handler": h.handler },
          el("th", { scope: "row" }, h.handler),
          el("td", { class: "num" }, String(h.pending)),
          el("td", { class: "num", title: h.oldestPendingAt || "" },
            h.oldestPendingAgeMs === undefined ? "—" : age(h.oldestPendingAgeMs) + " ago"),
          el("td", { class: "num" }, String(h.retrying)),
          el("td", { class: "num" + (h.dead > 0 ? " status-dead" : "") }, String(h.dead)))))))];
  }

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
        await route(false);
        say(outcome, failed);
        document.querySelector('[data-run-scheduled="' + CSS.escape(s.name) + '"]')?.focus();
      },
    }, "Run now");
  }

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
      confirmStep(button, "Revive the " + dead + " dead jobs of " + q.queue + "?", "Revive them",
        async () => {
          try {
            const answer = await api("POST", "/queues/" + encodeURIComponent(q.queue) + "/revival");
            say("Revived " + answer.revived + " dead jobs of " + q.queue +
              (answer.more ? "; dead jobs are left: revive again" : ""));
          } catch (error) {
            say(refusal(error, true), true);
          }
          await route(false);
        });
    });
    return button;
  }

  function purgeForm() {
    const input = el("input", { id: "purge-before", name: "before", type: "date", required: true });
    const form = el("form", { class: "purge" },
      el("label", { for: "purge-before" }, "Finished before", input),
      el("button", { type: "submit", class: "danger" }, "Purge finished jobs"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!input.value) return;
      const button = form.querySelector("button");
      confirmStep(button,
        "Delete every succeeded, dead and cancelled job finished before " + input.value + "?",
        "Purge them", async () => {
          try {
            const answer = await api("POST", "/purge", {
              before: new Date(input.value + "T00:00:00Z").toISOString(),
            });
            say("Purged " + answer.purged + " jobs finished before " + input.value);
          } catch (error) {
            say(refusal(error, true), true);
          }
          await route(false);
        });
    });
    return el("section", { "aria-labelledby": "purge-title" },
      el("h2", { id: "purge-title" }, "Purge"), form);
  }

  async function showJobs(params, focus) {
    const field = searchFields.some(([f]) => f === params.get("field")) ? params.get("field") : "name";
    const q = params.get("q") || "";
    const queue = params.get("queue") || "";
    const status = statuses.includes(params.get("status")) ? params.get("status") : "";
    const after = params.get("after") || "";
    const query = new URLSearchParams({ limit: "50" });
    if (queue) query.set("queue", queue);
    if (status) query.set("status", status);
    if (q) query.set(field, q);
    if (after) query.set("after", after);
    const page = await api("GET", "/jobs?" + query);
    view = { kind: "jobs", running: new Set(page.jobs.filter((j) => j.status === "running").map((j) => j.id)) };
    const fieldSelect = el("select", { id: "search-field", name: "field" },
      searchFields.map(([f, label]) => el("option", { value: f, selected: f === field }, label)));
    const text = el("input", { id: "search-text", name: "q", value: q, type: "search" });
    const queueInput = el("input", { id: "search-queue", name: "queue", value: queue });
    const statusSelect = el("select", { id: "search-status", name: "status" },
      el("option", { value: "" }, "Any"),
      statuses.map((s) => el("option", { value: s, selected: s === status }, s)));
    const form = el("form", { class: "search", role: "search" },
      el("label", { for: "search-field" }, "Search by", fieldSelect),
      el("label", { for: "search-text" }, "Search for", text),
      el("label", { for: "search-queue" }, "Queue", queueInput),
      el("label", { for: "search-status" }, "Status", statusSelect),
      el("button", { type: "submit", class: "primary" }, "Search"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      location.hash = hashOf("/jobs", {
        queue: queueInput.value.trim(),
        status: statusSelect.value,
        field: fieldSelect.value,
        q: text.value.trim(),
      });
    });
    const rows = page.jobs.map((job) =>
      el("tr", { "data-job-id": job.id },
        el("td", {}, el("a", { href: hashOf("/job/" + encodeURIComponent(job.id)) }, job.id)),
        el("td", {}, job.name),
        el("td", {}, job.subject || ""),
        el("td", { class: "status-" + job.status, "data-status-of": job.id }, job.status),
        el("td", { class: "num" }, job.attempts + "/" + job.maxAttempts),
        el("td", {}, progressOf(job)),
        el("td", {}, lastError(job)),
        el("td", {}, new Date(job.createdAt).toLocaleString()))
    );
    const title = "Jobs" + (queue ? " of " + queue : "") + (status ? ", " + status : "");
    const base = { queue, status, field: q ? field : "", q };
    main.replaceChildren(
      el("p", {}, el("a", { href: "#/" }, "Queues")),
      el("h2", {}, title),
      form,
      page.jobs.length === 0 ? el("p", {}, "No jobs match.") : el("div", { class: "scroll" },
        el("table", {},
          el("thead", {}, el("tr", {},
            ["Id", "Name", "Subject", "Status", "Attempts", "Progress", "Last error", "Created"]
              .map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, rows))),
      el("nav", { class: "pager", "aria-label": "Pages" },
        after ? el("a", { href: hashOf("/jobs", base) }, "First page") : "",
        page.next ? el("a", { href: hashOf("/jobs", { ...base, after: page.next }) }, "Next page") : ""),
    );
    if (focus) main.focus();
  }

  // A failed job shows its error code and when the last attempt failed; a retrying job (waiting
  // after a failure) also when it is tried again (its runAt).
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

  function row(term, value) {
    return [el("dt", {}, term), el("dd", {}, value === undefined || value === "" ? "—" : value)];
  }

  async function showJob(id, focus) {
    const job = await api("GET", "/jobs/" + encodeURIComponent(id));
    view = { kind: "job", id: job.id, status: job.status };
    const actions = el("div", { class: "actions" });
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
      el("p", {}, el("a", { href: "#/" }, "Queues"), " · ",
        el("a", { href: hashOf("/jobs", { queue: job.queue }) }, "Jobs of " + job.queue)),
      el("h2", {}, job.name),
      el("dl", {},
        row("Id", job.id),
        row("Status", el("span", { class: "status-" + job.status, "data-job-status": "" }, job.status)),
        row("Queue", job.queue),
        row("Worker", job.workerId === undefined ? undefined : job.workerGone
          ? el("span", { class: "status-dead", "data-worker-gone": "" },
            job.workerId + " — gone (its heartbeat expired); the rescuer returns the job to " +
            "waiting once its lease ends")
          : job.workerId),
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
        row("Checkpoint", job.checkpoint === undefined ? undefined
          : el("pre", {}, JSON.stringify(job.checkpoint, null, 2)))),
      actions,
      attemptsSection(job.attemptHistory || []),
    );
    if (focus) main.focus();
  }

  // The job's last ended attempts, newest first: a table in a region that scrolls sideways on a
  // phone and takes the keyboard's focus (so arrow keys scroll it); messages wrap.
  function attemptsSection(history) {
    const title = el("h3", { id: "attempts-title" }, "Attempts");
    if (history.length === 0) {
      return el("section", { id: "attempts" }, title, el("p", {}, "No attempt has ended yet."));
    }
    const rows = [...history].reverse().map((a) =>
      el("tr", { "data-attempt": String(a.attempt) },
        el("th", { scope: "row", class: "num" }, String(a.attempt)),
        el("td", { class: "status-" + a.outcome }, a.outcome),
        el("td", {}, a.errorCode || "—"),
        el("td", { class: "message" }, a.errorMessage || "—"),
        el("td", { title: a.startedAt ? "Started " + new Date(a.startedAt).toISOString() : undefined },
          el("time", { datetime: a.at }, new Date(a.at).toISOString())))
    );
    // The scrolling region, not the section, carries the name: one landmark, not two.
    return el("section", { id: "attempts" }, title,
      el("div", { class: "scroll", tabindex: "0", role: "region", "aria-labelledby": "attempts-title" },
        el("table", {},
          el("caption", { class: "skip" }, "Ended attempts, newest first (the last 20 are kept)"),
          el("thead", {}, el("tr", {},
            ["Attempt", "Outcome", "Code", "Message", "Time"]
              .map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, rows))));
  }

  async function route(focus) {
    if (!token) {
      view = { kind: "none" };
      main.replaceChildren(el("h2", {}, "Give your token"),
        el("p", {}, "Paste an operator's bearer token above: the jobs are read with it."));
      return;
    }
    const hash = location.hash.slice(1) || "/";
    const [path, search] = hash.split("?");
    try {
      if (path.startsWith("/job/")) await showJob(decodeURIComponent(path.slice(5)), focus);
      else if (path === "/jobs") await showJobs(new URLSearchParams(search || ""), focus);
      else if (path.startsWith("/processes/")) {
        await showInstances(decodeURIComponent(path.slice(11)), new URLSearchParams(search || ""),
          focus);
      } else if (path.startsWith("/process/")) {
        const [process, key] = path.slice(9).split("/").map(decodeURIComponent);
        await showInstance(process, key, new URLSearchParams(search || "").get("tenantId"), focus);
      }
      else await showQueues(focus);
    } catch (error) {
      view = { kind: "refused" };
      showRefused(error);
    }
  }

  // Live updates ----------------------------------------------------------------------------

  let refreshing = false;
  async function refresh() {
    if (refreshing) return;
    refreshing = true;
    try {
      await route(false);
    } finally {
      refreshing = false;
    }
  }

  function applySnapshot(snapshot) {
    const running = new Map(snapshot.running.map((job) => [job.id, job]));
    for (const bar of document.querySelectorAll("progress[data-progress-of]")) {
      const job = running.get(bar.dataset.progressOf);
      if (job) setProgress(bar, job.progress);
    }
    if (view.kind === "queues") {
      if (snapshot.queues.map((q) => q.queue).join("|") !== view.queues) return void refresh();
      if (Date.now() - activityLoadedAt > 30000) refreshActivity();
      if (Date.now() - workersLoadedAt > 5000) refreshWorkers();
      for (const q of snapshot.queues) {
        for (const s of statuses) {
          const link = document.querySelector('[data-count="' + CSS.escape(q.queue + "|" + s) + '"]');
          if (link && link.textContent !== String(q[s])) {
            link.textContent = String(q[s]);
            link.setAttribute("aria-label", q[s] + " " + s + " jobs of " + q.queue);
          }
        }
        if (q.dead > 0 && !document.querySelector('[data-revive-queue="' + CSS.escape(q.queue) + '"]')) {
          return void refresh();
        }
      }
    } else if (view.kind === "job") {
      if ((view.status === "running") !== running.has(view.id) && view.status !== "dead") refresh();
    } else if (view.kind === "jobs") {
      for (const id of view.running) if (!running.has(id)) return void refresh();
    }
  }

  async function connect() {
    stream?.abort();
    const controller = new AbortController();
    stream = controller;
    if (!token) return live("Not connected");
    let stop = false;
    try {
      const response = await fetch(prefix + "/events", {
        headers: { authorization: "Bearer " + token, accept: "text/event-stream" },
        signal: controller.signal,
      });
      if (!response.ok) {
        stop = response.status === 401 || response.status === 403;
        live("Live updates refused (" + response.status + ")");
        await response.body?.cancel();
      } else {
        live("Live", true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\\n\\n")) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = "message";
            const data = [];
            for (const line of block.split("\\n")) {
              if (line.startsWith("event:")) event = line.slice(6).trim();
              else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
            }
            if (data.length === 0) continue;
            const payload = JSON.parse(data.join("\\n"));
            if (event === "snapshot") applySnapshot(payload);
            if (event === "refused") {
              stop = true;
              live("Live updates stopped (" + payload.status + ")");
            }
          }
        }
      }
    } catch {
      if (controller.signal.aborted) return;
    }
    if (stream !== controller || stop) return;
    live("Reconnecting…");
    setTimeout(() => {
      if (stream === controller) connect();
    }, 2000);
  }

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    token = $("token").value.trim();
    if (token) sessionStorage.setItem(tokenKey, token);
    else sessionStorage.removeItem(tokenKey);
    say(token ? "Token in use for this tab" : "No token");
    connect();
    route(true);
  });
  $("forget-token").addEventListener("click", () => {
    token = "";
    $("token").value = "";
    sessionStorage.removeItem(tokenKey);
    stream?.abort();
    live("Not connected");
    say("Token forgotten");
    route(true);
  });
  addEventListener("hashchange", () => route(true));
  connect();
  route(false);
})();
`;
