import assert from "node:assert/strict";
import {
  extensionPoints,
  handWritten,
  isCommentLine,
  namesInCode,
  reasonToStay,
  referencedTypes,
} from "./unused_exports.ts";

const readme = [
  "# @kit/x",
  "",
  "Prose names thing without code, then `usedInCode(options)`.",
  "",
  "```ts",
  'import { fromBlock } from "@kit/x";',
  "```",
  "",
  "## Writing a store",
  "",
  "A store is an extension point: implement `Store` with `helper`.",
  "",
  "- `listed` is user API;",
  "- `hook` is an extension point.",
  "",
  "## Exports",
  "",
  "<!-- kit:begin exports -->",
  "- `generated` (function): Listed by the tool.",
  "<!-- kit:end -->",
].join("\n");

Deno.test("namesInCode reads the words of code spans and fenced blocks, not of prose", () => {
  const names = namesInCode(readme);
  for (const name of ["usedInCode", "options", "fromBlock", "Store", "listed", "generated"]) {
    assert.ok(names.has(name), name);
  }
  assert.ok(!names.has("thing"));
  assert.ok(!names.has("Prose"));
});

Deno.test("handWritten leaves out the generated exports list", () => {
  assert.ok(!namesInCode(handWritten(readme)).has("generated"));
  assert.ok(namesInCode(handWritten(readme)).has("listed"));
});

Deno.test("extensionPoints are the names of the paragraphs and list items that say so", () => {
  assert.deepEqual([...extensionPoints(readme)].sort(), ["Store", "helper", "hook"]);
});

Deno.test("referencedTypes finds type references, base classes and implemented types", () => {
  const declarations = [{
    kind: "class",
    def: {
      extends: "Base",
      implements: [{ repr: "Port", kind: "typeRef", value: { typeName: "Port" } }],
      constructors: [{
        params: [{ tsType: { repr: "Options", kind: "typeRef", value: { typeName: "Options" } } }],
      }],
      methods: [{
        returnType: { kind: "typeRef", value: { typeName: "postgres.Sql" } },
      }],
    },
  }];
  assert.deepEqual([...referencedTypes(declarations)].sort(), ["Base", "Options", "Port", "Sql"]);
});

Deno.test("reasonToStay: a signature's type, then an extension point, then documented API, else none", () => {
  const user = {
    name: "makeThing",
    entry: "x",
    declarations: [{ def: { params: [{ tsType: { value: { typeName: "ThingOptions" } } }] } }],
  };
  const options = { name: "ThingOptions", entry: "x", declarations: [] };
  const context = {
    everyExport: [user, options],
    extensionPoints: new Set(["hook"]),
    documented: new Set(["listed", "hook"]),
  };
  assert.equal(reasonToStay(options, context), "signature");
  assert.equal(
    reasonToStay({ name: "hook", entry: "x", declarations: [] }, context),
    "extension point",
  );
  assert.equal(
    reasonToStay({ name: "listed", entry: "x", declarations: [] }, context),
    "documented",
  );
  assert.equal(
    reasonToStay({ name: "internal", entry: "x", declarations: [] }, context),
    undefined,
  );
  assert.equal(reasonToStay(user, context), undefined, "a name is not in its own signature");
});

Deno.test("isCommentLine: a line of a comment is no use of a name, a line of code is", () => {
  for (const line of ["// runs someMigrations", " * {@linkcode SomeGuard}", "/** SomeGuard */"]) {
    assert.ok(isCommentLine(line), line);
  }
  for (const line of ["guards: [SomeGuard('a')], // the guard", "  const x = someMigrations;"]) {
    assert.ok(!isCommentLine(line), line);
  }
});
