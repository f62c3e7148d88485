import assert from "node:assert/strict";
import { readRegion, updateRegion } from "./marker_regions.ts";

const wrapped = `export const p = definePermissions("scheduling", {
  // kit:begin permissions
  "appointment.book": { description: "who may book (a patient)" },
  "appointment.cancel": {
    description: "TODO(domain): who may cancel appointment, a long description that wraps",
  },
  // kit:end
});
`;

Deno.test("readRegion joins an entry the formatter wrapped over several lines", () => {
  assert.deepEqual(readRegion(wrapped, "permissions", "p.ts"), [
    `"appointment.book": { description: "who may book (a patient)" },`,
    `"appointment.cancel": { description: "TODO(domain): who may cancel appointment, a long description that wraps" },`,
  ]);
});

Deno.test("adding to a region with a wrapped entry keeps every entry whole and sorted, once", () => {
  const entries = readRegion(wrapped, "permissions", "p.ts");
  const text = updateRegion(wrapped, "permissions", [
    ...entries,
    `"appointment.confirm": { description: "who may confirm" },`,
    // the wrapped entry again, written unwrapped: the same entry
    `"appointment.cancel": { description: "TODO(domain): who may cancel appointment, a long description that wraps" },`,
  ], "p.ts");
  const region = readRegion(text, "permissions", "p.ts");
  assert.equal(region.length, 3);
  assert.deepEqual(region.map((e) => e.split(":")[0]), [
    `"appointment.book"`,
    `"appointment.cancel"`,
    `"appointment.confirm"`,
  ]);
  assert.ok(text.endsWith("  // kit:end\n});\n"));
});

Deno.test("readRegion names a region left inside an unclosed entry", () => {
  const broken = "// kit:begin r\n  a: {\n// kit:end\n";
  assert.throws(() => readRegion(broken, "r", "f.ts"), /region 'r' ends inside an unclosed entry/);
});
