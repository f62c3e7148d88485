import assert from "node:assert/strict";
import { Slots } from "./slots.ts";

Deno.test("Slots.want() asks for the free slots when there is no prefetch", () => {
  const slots = new Slots(3, 0);
  assert.equal(slots.want(0), 3);
  slots.occupy();
  assert.equal(slots.want(0), 2);
});

Deno.test("Slots.want() tops the local queue up once half of it started", () => {
  const slots = new Slots(2, 10);
  assert.equal(slots.want(0), 12);
  assert.equal(slots.want(5), 2 + 5);
  assert.equal(slots.want(6), 2, "more than half held: the free slots only");
});

Deno.test("Slots.want() claims ahead no more after a short claim or an expired hold, until a slot frees", () => {
  const slots = new Slots(1, 4);
  const free = slots.occupy();
  assert.equal(slots.want(0), 4);
  slots.claimed(1, 4);
  assert.equal(slots.want(1), 0, "the queue had fewer: busy");
  free();
  assert.equal(slots.want(1), 1 + 3);
  slots.occupy();
  slots.holdExpired();
  assert.equal(slots.want(0), 0);
});

Deno.test("Slots.occupy() answers a function that frees the slot once and settles `freed`", async () => {
  const slots = new Slots(2, 0);
  const freed = slots.freed;
  const free = slots.occupy();
  slots.occupy();
  assert.equal(slots.free, 0);
  free();
  free();
  assert.equal(slots.free, 1);
  await freed;
  assert.notEqual(slots.freed, freed, "a new promise for the next slot");
});
