import assert from "node:assert/strict";
import type { KitConfig } from "../project/kit_config.ts";
import { formatMergeOrder, mergeOrder } from "./merge_order.ts";

function config(
  names: readonly string[],
  relationships: KitConfig["relationships"] = [],
): KitConfig {
  return {
    name: "clinic",
    contexts: names.map((name) => ({ name, kind: "core" })),
    relationships,
    queue: "memory",
    declarations: "decorators",
  };
}

Deno.test("the merge order puts the contexts a context consumes from before it", () => {
  const order = mergeOrder(config(["billing", "identity", "notifications", "scheduling"]), [
    { upstream: "scheduling", downstream: "notifications", events: ["AppointmentBooked"] },
    { upstream: "identity", downstream: "scheduling", events: ["PersonRegistered"] },
  ]);
  assert.deepEqual(order.steps, [[["billing"], ["identity"]], [["scheduling"]], [[
    "notifications",
  ]]]);
  assert.deepEqual(order.cycles, []);
  assert.deepEqual(formatMergeOrder(order), [
    "Merge order (the contracts of upstream contexts first):",
    "  1. billing, identity",
    "  2. scheduling",
    "  3. notifications",
  ]);
});

Deno.test("the merge order follows the declared relationships too, and names a cycle", () => {
  const order = mergeOrder(
    config(["availability", "notifications", "scheduling"], [
      { upstream: "availability", downstream: "scheduling" },
    ]),
    [
      { upstream: "scheduling", downstream: "availability", events: ["SlotTaken"] },
      { upstream: "scheduling", downstream: "notifications", events: ["AppointmentBooked"] },
    ],
  );
  assert.deepEqual(order.steps, [[["availability", "scheduling"]], [["notifications"]]]);
  assert.deepEqual(order.cycles, [["availability", "scheduling", "availability"]]);
  const lines = formatMergeOrder(order);
  assert.equal(lines[1], "  1. availability + scheduling (a cycle: merge together)");
  assert.match(lines.at(-1)!, /^ {2}Cycle: availability → scheduling → availability \(/);
});

Deno.test("a cycle of three is shown as the path that closes it", () => {
  const order = mergeOrder(config(["a", "b", "c"]), [
    { upstream: "a", downstream: "b", events: ["E"] },
    { upstream: "b", downstream: "c", events: ["F"] },
    { upstream: "c", downstream: "a", events: ["G"] },
  ]);
  assert.deepEqual(order.steps, [[["a", "b", "c"]]]);
  assert.deepEqual(order.cycles, [["a", "b", "c", "a"]]);
});
