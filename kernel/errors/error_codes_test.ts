import assert from "node:assert/strict";
import { ConceptError, DeclaredError, defineErrorCodes, isRefusal } from "../mod.ts";
import { isErrorCode } from "../internal.ts";
import type { ErrorCodeOptions } from "../types.ts";

Deno.test("defineErrorCodes() gives each code one status, from its status or its kind", () => {
  const codes = defineErrorCodes("scheduling", {
    SLOT_TAKEN: { status: 409, description: "The slot is booked already" },
    OFF_GRID: { kind: "refusal", description: "Not on the grid" },
    UNKNOWN_CALENDAR: { status: 404, description: "No such calendar" },
    PERIOD_REQUIRED: { status: 400, description: "Name a period" },
    LOCKED: { status: 423, kind: "conflict", description: "The calendar is locked" },
  });
  assert.deepEqual(
    Object.values(codes).map((c) => `${c.code} ${c.status} ${c.kind} ${c.context}`),
    [
      "LOCKED 423 conflict scheduling",
      "OFF_GRID 422 refusal scheduling",
      "PERIOD_REQUIRED 400 refusal scheduling",
      "SLOT_TAKEN 409 conflict scheduling",
      "UNKNOWN_CALENDAR 404 not-found scheduling",
    ],
  );
  assert.equal(codes.SLOT_TAKEN.description, "The slot is booked already");
  assert.ok(isErrorCode(codes.OFF_GRID));
  assert.ok(!isErrorCode("OFF_GRID"));
});

Deno.test("A declared code's error() is a ConceptError of its kind that carries its status", () => {
  const codes = defineErrorCodes("scheduling", {
    SLOT_TAKEN: { status: 409, description: "The slot is booked already" },
  });
  const error = codes.SLOT_TAKEN.error("The slot at 09:00 is booked", { slot: "09:00" });
  assert.ok(error instanceof ConceptError);
  assert.ok(error instanceof DeclaredError);
  assert.ok(isRefusal(error, "SLOT_TAKEN"));
  assert.ok(codes.SLOT_TAKEN.is(error));
  assert.ok(!codes.SLOT_TAKEN.is(ConceptError.conflict("OTHER", "x")));
  assert.ok(codes.SLOT_TAKEN.is(ConceptError.conflict("SLOT_TAKEN", "x")));
  assert.equal(error.kind, "conflict");
  assert.equal(error.status, 409);
  assert.equal(error.context, "scheduling");
  assert.equal(error.message, "The slot at 09:00 is booked");
  assert.deepEqual(error.details, { slot: "09:00" });
  assert.equal(error.name, "ConceptError");
});

Deno.test("defineErrorCodes() refuses a code with no status, a bad status or name, a kind that disagrees", () => {
  const refused = (codes: Record<string, unknown>, pattern: RegExp) =>
    assert.throws(
      () => defineErrorCodes("scheduling", codes as Record<string, ErrorCodeOptions>),
      pattern,
    );
  refused(
    { SLOT_TAKEN: { description: "x" } },
    /'SLOT_TAKEN' of context 'scheduling' declares no status/,
  );
  refused(
    { SLOT_TAKEN: { status: 500, description: "x" } },
    /status 500: a domain code answers 400-499/,
  );
  refused({ SLOT_TAKEN: { status: 409.5, description: "x" } }, /status 409.5/);
  refused({ slot_taken: { status: 409, description: "x" } }, /'slot_taken'.*upper snake case/);
  refused({ SLOT_TAKEN: { kind: "oops", description: "x" } }, /unknown kind "oops"/);
  refused(
    { SLOT_TAKEN: { status: 409, kind: "not-found", description: "x" } },
    /kind not-found, which answers 404, but declares status 409/,
  );
  refused({ SLOT_TAKEN: { status: 409, description: " " } }, /needs a description/);
  assert.throws(() => defineErrorCodes("Scheduling", {}), /kebab-case name, got "Scheduling"/);
});

Deno.test("A code without a status or a kind does not compile", () => {
  // @ts-expect-error: a code must say its status or its kind
  assert.throws(() => defineErrorCodes("x", { NO_STATUS: { description: "x" } }));
});
