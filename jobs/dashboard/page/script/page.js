/** @import { JobStatus, View } from "./types.d.ts" */
// The page's state: where the jobs API is, the operator's token, what is shown, and how to show
// it again (the router, set by dashboard.js).

/** The jobs API's path prefix (the page's own path). */
export const prefix = document.body.dataset.prefix || "";
/** Where the token is kept (this tab only). */
export const tokenKey = "kit.jobs.token";
/** @type {readonly JobStatus[]} */
export const statuses = ["waiting", "running", "succeeded", "dead", "cancelled"];
/** The element each view fills. */
export const main = /** @type {HTMLElement} */ (document.getElementById("main"));

/**
 * The operator's token, what the page shows, and the router that shows the current hash again.
 *
 * @type {{ token: string, view: View, route: (focus: boolean) => Promise<void> }}
 */
export const page = {
  token: sessionStorage.getItem(tokenKey) || "",
  view: { kind: "none" },
  route: () => Promise.resolve(),
};
