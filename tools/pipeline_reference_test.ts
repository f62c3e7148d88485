/**
 * docs/reference/pipeline.md names the steps a route's plan may hold, in the order
 * `planRoute` (http/pipeline/route_plan.ts) pushes them, and both of its last steps: a step added,
 * removed or moved in the code fails here until the page says so.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..");

/** The steps `planRoute` may push, in its order, then the last steps it may answer with. */
function stepsOfPlan(source: string): string[] {
  const plan = source.slice(source.indexOf("export function planRoute"));
  const pushed = [...plan.matchAll(/steps\.push\((\w+)/g)].map((match) => match[1]!);
  const answers = /answer:[^;]*\?\s*(\w+)\s*:\s*(\w+)/.exec(plan);
  assert.ok(answers, "planRoute names its answer steps");
  return [...pushed, answers[1]!, answers[2]!];
}

/** The steps the page's table names, in its order (its first column). */
function stepsOfPage(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `(\w+)`\s+\|/gm)].map((match) => match[1]!);
}

Deno.test("the pipeline reference names every step of a route's plan, in the plan's order", () => {
  const code = stepsOfPlan(readFileSync(join(root, "http/pipeline/route_plan.ts"), "utf8"));
  const page = stepsOfPage(readFileSync(join(root, "docs/reference/pipeline.md"), "utf8"));
  assert.ok(code.length >= 10, `steps read from the code: ${code.join(", ")}`);
  assert.deepEqual(page, code);
});

Deno.test("a step the page leaves out, or puts elsewhere, is found", () => {
  const source = "export function planRoute() { steps.push(a); steps.push(b(i)); " +
    "return { answer: x ? c : d }; }";
  assert.deepEqual(stepsOfPlan(source), ["a", "b", "c", "d"]);
  assert.deepEqual(stepsOfPage("| `b` | x |\n| `a` | y |\n"), ["b", "a"]);
});
