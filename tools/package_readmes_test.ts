import assert from "node:assert/strict";
import { exportsList, firstSentence } from "./package_readmes.ts";

Deno.test("an export's line is the first sentence of its doc comment, links as code", () => {
  assert.equal(
    firstSentence("Runs {@linkcode Thing} once.\nThen more. And more."),
    "Runs `Thing` once.",
  );
  assert.equal(firstSentence("No period at the end"), "No period at the end");
  assert.equal(firstSentence("Version 1.2 is kept. Rest."), "Version 1.2 is kept.");
  assert.equal(firstSentence(undefined), "");
});

Deno.test("the exports list has a heading per entry point and a sorted line per name", () => {
  const list = exportsList("jobs", [
    [".", [
      { name: "b", declarations: [{ kind: "function", jsDoc: { doc: "B does." } }] },
      { name: "A", declarations: [{ kind: "interface" }, { kind: "variable" }] },
    ]],
    ["./redis", [{ name: "R", declarations: [{ kind: "class", jsDoc: { doc: "R." } }] }]],
  ]);
  assert.equal(
    list,
    [
      "### `@kit/jobs`",
      "",
      "- `A` (interface, variable): ",
      "- `b` (function): B does.",
      "",
      "### `@kit/jobs/redis`",
      "",
      "- `R` (class): R.",
    ].join("\n"),
  );
});
