import assert from "node:assert/strict";
import { ConceptError, ForbiddenError, isRefusal, UnauthorizedError } from "../mod.ts";

Deno.test("ConceptError.refusal carries its code, message and details", () => {
  const error = ConceptError.refusal("SLOT_TAKEN", "The slot is taken", { slot: "09:00" });
  assert.equal(error.code, "SLOT_TAKEN");
  assert.equal(error.kind, "refusal");
  assert.equal(error.message, "The slot is taken");
  assert.deepEqual(error.details, { slot: "09:00" });
  assert.ok(error instanceof Error);
});

Deno.test("isRefusal tests for a domain error and, when given, its code", () => {
  const error = ConceptError.notFound("APPOINTMENT_NOT_FOUND", "No such appointment");
  assert.ok(isRefusal(error));
  assert.ok(isRefusal(error, "APPOINTMENT_NOT_FOUND"));
  assert.ok(!isRefusal(error, "APPOINTMENT_ENDED"));
  assert.ok(!isRefusal(new Error("x")));
  assert.ok(!isRefusal({ code: "APPOINTMENT_NOT_FOUND" }, "APPOINTMENT_NOT_FOUND"));
  assert.ok(!isRefusal(undefined));
});

Deno.test("UnauthorizedError and ForbiddenError carry UNAUTHORIZED and FORBIDDEN", () => {
  assert.ok(isRefusal(new UnauthorizedError(), "UNAUTHORIZED"));
  assert.equal(new UnauthorizedError().kind, "unauthorized");
  assert.ok(isRefusal(new ForbiddenError(), "FORBIDDEN"));
  assert.equal(new ForbiddenError("no").kind, "forbidden");
  assert.equal(ConceptError.conflict("SLOT_TAKEN", "x").kind, "conflict");
});
