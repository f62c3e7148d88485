import assert from "node:assert/strict";
import { PersonRegistered } from "./person-registered.event.ts";

Deno.test("PersonRegistered is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await PersonRegistered.create({
    personId: "p1",
    registeredAt: "2026-03-02T08:00:00Z",
  });
  assert.equal(event.type, "identity.person.registered");
  assert.equal(event.version, 1);
  await assert.rejects(
    () => PersonRegistered.create({ personId: 1 } as never),
    /payload of event 'identity.person.registered' v1 is invalid/,
  );
});
