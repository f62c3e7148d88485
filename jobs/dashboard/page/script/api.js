/** @import { Problem } from "./types.d.ts" */
import { el, say } from "./dom.js";
import { main, page, prefix } from "./page.js";
// The jobs API, read with the operator's token, and its refusals in words.

/** A refusal of the jobs API: its HTTP status and its problem's code. */
export class Refused extends Error {
  /**
   * @param {number} status
   * @param {Problem} problem
   */
  constructor(status, problem) {
    super(problem.detail || problem.title || "HTTP " + status);
    /** @type {number} */
    this.status = status;
    /** @type {string | undefined} */
    this.code = problem.code;
  }
}

/**
 * The JSON the jobs API answers (`Refused` when it refuses), with the operator's token.
 *
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: "application/json" };
  if (page.token) headers.authorization = "Bearer " + page.token;
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

/**
 * What a failed call means, in words (`acting`: the operator acted on jobs, not read them).
 *
 * @param {unknown} error
 * @param {boolean} acting
 * @returns {string}
 */
export function refusal(error, acting) {
  if (!(error instanceof Refused)) {
    return "The jobs API could not be reached: " + /** @type {Error} */ (error).message;
  }
  if (error.status === 401) {
    return "401: give a valid bearer token (it is missing, malformed or expired)";
  }
  if (error.status === 403 && error.code === "FORBIDDEN") {
    return acting
      ? "403: you may not operate jobs (" + error.message + ")"
      : "403: you may not read jobs";
  }
  return error.status + (error.code ? " " + error.code : "") + ": " + error.message;
}

/**
 * Shows a refused read in place of the view, with what to do.
 *
 * @param {unknown} error
 */
export function showRefused(error) {
  const text = refusal(error, false);
  say(text, true);
  main.replaceChildren(el(
    "section",
    { class: "refused", role: "alert" },
    el("h2", {}, text),
    el(
      "p",
      {},
      error instanceof Refused && error.status === 403
        ? "Your token is valid, but its roles do not grant the permission jobs.read. Ask for a role that does (an operator's), then give its token above."
        : "Give an operator's bearer token above.",
    ),
  ));
}

/**
 * A section of the front page, filled from the list `key` that `GET path` answers: the refusal
 * when the read is refused, `empty` when the list is, else what `fill(list)` answers.
 *
 * @template T
 * @param {string} id
 * @param {string} title
 * @param {string} path
 * @param {string} key
 * @param {string} empty
 * @param {(list: T[]) => Node[]} fill
 * @returns {Promise<HTMLElement>}
 */
export async function listSection(id, title, path, key, empty, fill) {
  const section = el(
    "section",
    { "aria-labelledby": id + "-title", id },
    el("h2", { id: id + "-title" }, title),
  );
  /** @type {T[]} */
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
