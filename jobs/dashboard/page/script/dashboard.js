import { showRefused } from "./api.js";
import { $, el, live, say } from "./dom.js";
import { showJob, showJobs } from "./jobs.js";
import { connect, disconnect } from "./live.js";
import { main, page, tokenKey } from "./page.js";
import { showInstance, showInstances } from "./processes.js";
import { showQueues } from "./queues.js";
// The dashboard page's script (plain JavaScript, served as is): the router from the hash to the
// view it names, and the operator's token (kept in sessionStorage, sent as `Authorization:
// Bearer`). tools/dashboard_script.ts joins it and the modules it imports into
// ../page_script.generated.ts; `deno task check` type-checks them (their JSDoc, with the DOM's
// types: `deno check --config tools/dashboard_script.deno.json jobs/dashboard/page/script/`).

/** @type {HTMLInputElement} */ ($("token")).value = page.token;

/**
 * Shows the view the hash names (the front page by default), or why it cannot.
 *
 * @param {boolean} focus
 */
async function route(focus) {
  if (!page.token) {
    page.view = { kind: "none" };
    main.replaceChildren(
      el("h2", {}, "Give your token"),
      el("p", {}, "Paste an operator's bearer token above: the jobs are read with it."),
    );
    return;
  }
  const hash = location.hash.slice(1) || "/";
  const [path = "", search] = hash.split("?");
  try {
    if (path.startsWith("/job/")) await showJob(decodeURIComponent(path.slice(5)), focus);
    else if (path === "/jobs") await showJobs(new URLSearchParams(search || ""), focus);
    else if (path.startsWith("/processes/")) {
      await showInstances(
        decodeURIComponent(path.slice(11)),
        new URLSearchParams(search || ""),
        focus,
      );
    } else if (path.startsWith("/process/")) {
      const [process = "", key = ""] = path.slice(9).split("/").map(decodeURIComponent);
      await showInstance(process, key, new URLSearchParams(search || "").get("tenantId"), focus);
    } else await showQueues(focus);
  } catch (error) {
    page.view = { kind: "refused" };
    showRefused(error);
  }
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  page.token = /** @type {HTMLInputElement} */ ($("token")).value.trim();
  if (page.token) sessionStorage.setItem(tokenKey, page.token);
  else sessionStorage.removeItem(tokenKey);
  say(page.token ? "Token in use for this tab" : "No token");
  connect();
  route(true);
});
$("forget-token").addEventListener("click", () => {
  page.token = "";
  /** @type {HTMLInputElement} */ ($("token")).value = "";
  sessionStorage.removeItem(tokenKey);
  disconnect();
  live("Not connected");
  say("Token forgotten");
  route(true);
});
page.route = route;
addEventListener("hashchange", () => route(true));
connect();
route(false);
