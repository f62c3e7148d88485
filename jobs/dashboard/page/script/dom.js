/**
 * An element's attributes: `class`, `on<event>` listeners, others as strings (`true`: empty).
 *
 * @typedef {Readonly<Record<string, string | number | boolean | EventListener | null | undefined>>} Attributes
 */
/**
 * A node or text; nothing for `undefined`, `null`, `false`.
 *
 * @typedef {Node | string | number | false | null | undefined} Leaf
 */
/**
 * A child of an element: a leaf, or leaves (flattened once, as children are).
 *
 * @typedef {Leaf | readonly Leaf[]} Child
 */
// Building the page: elements from text nodes only (no HTML from data), the status line, links
// as hashes, and the step that confirms a dangerous action.

/**
 * The element of the page with this id.
 *
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/**
 * Appends children (text for anything but a node) to a node.
 *
 * @param {Element} node
 * @param {readonly Child[]} children
 */
function append(node, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
}

/**
 * An HTML element with attributes (`class`, `on<event>` listeners, others as strings) and
 * children.
 *
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attrs]
 * @param {readonly Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = String(value);
    else if (name.startsWith("on")) {
      node.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/**
 * An SVG element with attributes and children.
 *
 * @param {string} tag
 * @param {Attributes} [attrs]
 * @param {readonly Child[]} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

/**
 * Says what happened in the status line (announced).
 *
 * @param {string} text
 * @param {boolean} [error]
 */
export function say(text, error) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", Boolean(error));
}

/**
 * Says how the live updates are.
 *
 * @param {string} text
 * @param {boolean} [on]
 */
export function live(text, on) {
  $("live").textContent = text;
  $("live").classList.toggle("on", Boolean(on));
}

/**
 * The hash of a view with its parameters (empty ones left out).
 *
 * @param {string} path
 * @param {Readonly<Record<string, string | undefined>>} [params]
 * @returns {string}
 */
export function hashOf(path, params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== "") query.set(name, value);
  }
  const text = query.toString();
  return "#" + path + (text ? "?" + text : "");
}

/**
 * Replaces `where` (a button) by a question with a button that acts and one that puts it back
 * (focused).
 *
 * @param {HTMLElement} where
 * @param {string} question
 * @param {string} yes
 * @param {() => unknown} act
 */
export function confirmStep(where, question, yes, act) {
  const keep = /** @type {HTMLElement} */ (where.cloneNode(true));
  const parent = /** @type {ParentNode & Node} */ (where.parentNode);
  const box = el(
    "div",
    { class: "confirm", role: "group", "aria-label": question },
    el("span", {}, question),
    el("button", { type: "button", class: "danger", onclick: act }, yes),
    el("button", { type: "button", onclick: restore }, "Keep them"),
  );
  parent.replaceChild(box, where);
  box.querySelector("button")?.focus();
  function restore() {
    box.replaceWith(keep);
    keep.focus();
  }
}

/**
 * A term and its value in a description list (`—` when there is none).
 *
 * @param {string} term
 * @param {Child} value
 * @returns {HTMLElement[]}
 */
export function row(term, value) {
  return [el("dt", {}, term), el("dd", {}, value === undefined || value === "" ? "—" : value)];
}
