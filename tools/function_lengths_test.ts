import assert from "node:assert/strict";
import { functionLengths } from "./function_lengths.ts";

Deno.test("functionLengths measures declarations, methods and arrows by their lines, with their names", () => {
  const source = [
    "export function outer(): number {", // 1
    "  const inner = () => {", // 2
    "    return 1;", // 3
    "  };", // 4
    "  return inner();", // 5
    "}", // 6
    "class A {", // 7
    "  @decorated method(): void {}", // 8
    "}", // 9
    "const table = { run: function () {\n} };", // 10-11
    "declare function bodiless(): void;", // 12
  ].join("\n");
  const found = functionLengths("a.ts", source).map(({ line, lines, name }) => ({
    line,
    lines,
    name,
  }));
  assert.deepEqual(found, [
    { line: 1, lines: 6, name: "outer" },
    { line: 2, lines: 3, name: "inner" },
    { line: 8, lines: 1, name: "method" },
    { line: 10, lines: 2, name: "run" },
  ]);
});
