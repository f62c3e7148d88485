/** @import { Job, Progress } from "./types.d.ts" */
import { el } from "./dom.js";
// A job's progress: a progress bar with its text beside it, updated as the job moves.

/**
 * @param {Progress} progress
 * @returns {string}
 */
function percent(progress) {
  if (progress.total === undefined) return progress.done + " done";
  return progress.done + " of " + progress.total;
}

/**
 * Shows `progress` on a job's bar (and the text beside it).
 *
 * @param {HTMLProgressElement} bar
 * @param {Progress} progress
 */
export function setProgress(bar, progress) {
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

/**
 * A job's progress bar and its text.
 *
 * @param {Job} job
 * @returns {(HTMLElement | string)[]}
 */
export function progressOf(job) {
  const bar = el("progress", { "data-progress-of": job.id, "aria-label": "Progress of " + job.id });
  setProgress(bar, job.progress);
  return [bar, " ", el("span", { class: "progress-text" }, percent(job.progress))];
}
