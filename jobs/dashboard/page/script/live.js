/** @import { Snapshot } from "./types.d.ts" */
import { activityLoadedAt, refreshActivity } from "./activity.js";
import { live } from "./dom.js";
import { page, prefix, statuses } from "./page.js";
import { setProgress } from "./progress.js";
import { refreshWorkers, workersLoadedAt } from "./sections.js";
// Live updates: the event stream (`GET <prefix>/events`, read with fetch() so that the token is
// sent) updates the counts and progress bars in place, and shows the view again when what it
// shows has changed; it reconnects after a loss, not after a refusal.

/** @type {AbortController | undefined} */
let stream;

let refreshing = false;
/** Shows the view again (once at a time). */
async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    await page.route(false);
  } finally {
    refreshing = false;
  }
}

/**
 * Updates the view from a snapshot of the event stream.
 *
 * @param {Snapshot} snapshot
 */
function applySnapshot(snapshot) {
  const running = new Map(snapshot.running.map((job) => [job.id, job]));
  const view = page.view;
  for (const bar of document.querySelectorAll("progress[data-progress-of]")) {
    if (!(bar instanceof HTMLProgressElement)) continue;
    const job = running.get(bar.dataset.progressOf ?? "");
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
      if (
        q.dead > 0 && !document.querySelector('[data-revive-queue="' + CSS.escape(q.queue) + '"]')
      ) {
        return void refresh();
      }
    }
  } else if (view.kind === "job") {
    if ((view.status === "running") !== running.has(view.id) && view.status !== "dead") refresh();
  } else if (view.kind === "jobs") {
    for (const id of view.running) if (!running.has(id)) return void refresh();
  }
}

/** Follows the event stream with the operator's token (none: not connected). */
export async function connect() {
  stream?.abort();
  const controller = new AbortController();
  stream = controller;
  if (!page.token) return live("Not connected");
  let stop = false;
  try {
    const response = await fetch(prefix + "/events", {
      headers: { authorization: "Bearer " + page.token, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok) {
      stop = response.status === 401 || response.status === 403;
      live("Live updates refused (" + response.status + ")");
      await response.body?.cancel();
    } else {
      live("Live", true);
      const reader = /** @type {ReadableStream<BufferSource>} */ (response.body).pipeThrough(
        new TextDecoderStream(),
      ).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          const data = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
          }
          if (data.length === 0) continue;
          const payload = JSON.parse(data.join("\n"));
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

/** Stops following the event stream. */
export function disconnect() {
  stream?.abort();
}
