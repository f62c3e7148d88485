/** @import { InstanceDetail, InstancePage, InstanceRow, ProcessCounts } from "./types.d.ts" */
import { api, listSection, refusal } from "./api.js";
import { confirmStep, el, hashOf, row, say } from "./dom.js";
import { main, page } from "./page.js";
// The process managers: the front page's section of each one's instances by status, a page of a
// process's instances, and one instance with its state, pending deadlines (linking to their
// jobs), history and the operator's end. Text nodes only (no HTML from data).

/**
 * The front page's "Processes" section (`GET /processes`).
 *
 * @returns {Promise<HTMLElement>}
 */
export function processesSection() {
  return listSection(
    "processes",
    "Processes",
    "/processes",
    "processes",
    "No process instances yet.",
    processesTable,
  );
}

/**
 * @param {ProcessCounts[]} processes
 * @returns {HTMLElement[]}
 */
function processesTable(processes) {
  return [
    el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el("caption", { class: "skip" }, "Instances of each process manager by status"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col" }, "Process"),
            ["active", "completed"].map((s) => el("th", { scope: "col", class: "num" }, s)),
          ),
        ),
        el(
          "tbody",
          {},
          processes.map((p) =>
            el(
              "tr",
              { "data-process": p.process },
              el(
                "th",
                { scope: "row" },
                el("a", { href: hashOf("/processes/" + encodeURIComponent(p.process)) }, p.process),
              ),
              /** @type {const} */ (["active", "completed"]).map((s) =>
                el(
                  "td",
                  { class: "num" },
                  el("a", {
                    href: hashOf("/processes/" + encodeURIComponent(p.process), { status: s }),
                    "aria-label": p[s] + " " + s + " instances of " + p.process,
                  }, String(p[s])),
                )
              ),
            )
          ),
        ),
      ),
    ),
  ];
}

/**
 * The hash of one instance of a process.
 *
 * @param {string} process
 * @param {InstanceRow} instance
 */
function instanceHash(process, instance) {
  return hashOf(
    "/process/" + encodeURIComponent(process) + "/" +
      encodeURIComponent(instance.key),
    { tenantId: instance.tenantId },
  );
}

/**
 * Shows a page of a process's instances (filtered by status).
 *
 * @param {string} process
 * @param {URLSearchParams} params
 * @param {boolean} focus
 */
export async function showInstances(process, params, focus) {
  const status = params.get("status") || "";
  const after = params.get("after") || "";
  const query = new URLSearchParams({ limit: "50" });
  if (status) query.set("status", status);
  if (after) query.set("after", after);
  /** @type {InstancePage} */
  const instances = await api(
    "GET",
    "/processes/" + encodeURIComponent(process) + "/instances?" +
      query.toString(),
  );
  page.view = { kind: "instances" };
  const base = "/processes/" + encodeURIComponent(process);
  const rows = instances.instances.map((i) =>
    el(
      "tr",
      { "data-instance": i.tenantId + "/" + i.key },
      el("th", { scope: "row" }, el("a", { href: instanceHash(process, i) }, i.key)),
      el("td", {}, i.tenantId || "—"),
      el("td", { class: "status-" + (i.status === "active" ? "running" : "succeeded") }, i.status),
      el("td", { class: "num" }, String(i.version)),
      el("td", {}, el("time", { datetime: i.updatedAt }, i.updatedAt)),
    )
  );
  main.replaceChildren(
    el("p", {}, el("a", { href: "#/" }, "Queues")),
    el("h2", {}, process),
    el(
      "p",
      { class: "filters" },
      ["", "active", "completed"].map((s) =>
        el("a", {
          href: hashOf(base, { status: s }),
          "aria-current": s === status ? "page" : undefined,
        }, s || "all")
      ),
    ),
    instances.instances.length === 0 ? el("p", {}, "No instances.") : el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el("caption", { class: "skip" }, "Instances of " + process + ", by tenant then key"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Key", "Tenant", "Status", "Version", "Updated"]
              .map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    ),
    el(
      "p",
      { class: "pages" },
      after ? el("a", { href: hashOf(base, { status }) }, "First page") : "",
      instances.next
        ? el("a", { href: hashOf(base, { status, after: instances.next }) }, "Next page")
        : "",
    ),
  );
  if (focus) main.focus();
}

/**
 * Shows one instance of a process (`tenantId` null: the instance of no tenant).
 *
 * @param {string} process
 * @param {string} key
 * @param {string | null} tenantId
 * @param {boolean} focus
 */
export async function showInstance(process, key, tenantId, focus) {
  const where = "/processes/" + encodeURIComponent(process) + "/instances/" +
    encodeURIComponent(key) +
    (tenantId === null ? "" : "?tenantId=" + encodeURIComponent(tenantId));
  /** @type {InstanceDetail} */
  const { instance, history } = await api("GET", where);
  page.view = { kind: "instance" };
  const actions = el("div", { class: "actions" });
  if (instance.status === "active") {
    const button = el(
      "button",
      { type: "button", class: "danger", "data-end-instance": key },
      "End instance",
    );
    button.addEventListener("click", () => {
      confirmStep(
        button,
        "End " + key + " of " + process + "? Its deadlines are cancelled.",
        "End it",
        async () => {
          let outcome = "Instance " + key + " ended; its deadline jobs cancelled";
          let failed = false;
          try {
            const path = "/processes/" + encodeURIComponent(process) + "/instances/" +
              encodeURIComponent(key) + "/end?tenantId=" + encodeURIComponent(instance.tenantId);
            await api("POST", path);
          } catch (error) {
            outcome = refusal(error, true);
            failed = true;
          }
          await showInstance(process, key, instance.tenantId, false);
          say(outcome, failed);
          main.focus();
        },
      );
    });
    actions.append(button);
  }
  const deadlines = instance.deadlines.length === 0 ? el("p", {}, "No deadline is pending.") : el(
    "div",
    { class: "scroll" },
    el(
      "table",
      {},
      el("caption", { class: "skip" }, "Pending deadlines"),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Deadline", "Due", "Job"]
            .map((h) => el("th", { scope: "col" }, h)),
        ),
      ),
      el(
        "tbody",
        {},
        instance.deadlines.map((d) =>
          el(
            "tr",
            { "data-deadline": d.name },
            el("th", { scope: "row" }, d.name),
            el("td", {}, el("time", { datetime: d.at }, d.at)),
            el(
              "td",
              {},
              d.jobId
                ? el("a", { href: hashOf("/job/" + encodeURIComponent(d.jobId)) }, d.jobId)
                : "—",
            ),
          )
        ),
      ),
    ),
  );
  const events = history.length === 0 ? el("p", {}, "Nothing handled yet.") : el(
    "div",
    { class: "scroll", tabindex: "0", role: "region", "aria-labelledby": "history-title" },
    el(
      "table",
      {},
      el("caption", { class: "skip" }, "Messages handled, oldest first"),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Kind", "Name", "Handled", "Id"]
            .map((h) => el("th", { scope: "col" }, h)),
        ),
      ),
      el(
        "tbody",
        {},
        history.map((m) =>
          el(
            "tr",
            { "data-history": m.kind },
            el("td", {}, m.kind + (m.parked ? " (parked)" : "")),
            el("td", { class: "message" }, m.kind === "operator" ? "ended by " + m.name : m.name),
            el("td", {}, el("time", { datetime: m.handledAt }, m.handledAt)),
            el("td", { class: "message" }, m.messageId),
          )
        ),
      ),
    ),
  );
  main.replaceChildren(
    el(
      "p",
      {},
      el("a", { href: "#/" }, "Queues"),
      " · ",
      el(
        "a",
        { href: hashOf("/processes/" + encodeURIComponent(process)) },
        "Instances of " + process,
      ),
    ),
    el("h2", {}, process + " " + key),
    el(
      "dl",
      {},
      row("Status", el("span", { "data-instance-status": "" }, instance.status)),
      row("Tenant", instance.tenantId),
      row("Version", String(instance.version)),
      row("Started", instance.startedAt),
      row("Updated", instance.updatedAt),
      row("Completed", instance.completedAt),
      row("Ended by", instance.endedBy),
      row("State", el("pre", {}, JSON.stringify(instance.state, null, 2))),
    ),
    actions,
    el("section", { id: "deadlines" }, el("h3", {}, "Pending deadlines"), deadlines),
    el("section", { id: "history" }, el("h3", { id: "history-title" }, "History"), events),
  );
  if (focus) main.focus();
}
