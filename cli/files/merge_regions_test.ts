import assert from "node:assert/strict";
import { mergeRegions, type ThreeSides } from "./merge_regions.ts";

const permissions = (entries: string[]): string =>
  `export const p = definePermissions("billing", {\n  // kit:begin permissions\n${
    entries.map((e) => `  ${e}\n`).join("")
  }  // kit:end\n});\n`;
const noTextMerge = (): Promise<string | undefined> => Promise.resolve(undefined);

Deno.test("mergeRegions keeps every entry either side added and drops those either removed", async () => {
  const sides: ThreeSides = {
    base: permissions(['"a.read": { description: "a" },', '"old": { description: "o" },']),
    ours: permissions(['"a.read": { description: "a" },', '"b.write": { description: "b" },']),
    theirs: permissions([
      '"a.read": { description: "a" },',
      '"c.send": {',
      '  description: "c",',
      "},",
      '"old": { description: "o" },',
    ]),
  };
  assert.equal(
    await mergeRegions(sides, noTextMerge),
    permissions([
      '"a.read": { description: "a" },',
      '"b.write": { description: "b" },',
      '"c.send": { description: "c" },',
    ]),
  );
});

Deno.test("mergeRegions merges the text outside the regions as git would, and refuses a real conflict", async () => {
  const withHeader = (header: string, entries: string[]) => `// ${header}\n${permissions(entries)}`;
  const base = withHeader("base", []);
  assert.equal(
    await mergeRegions(
      { base, ours: withHeader("base", ["A: 1,"]), theirs: withHeader("edited", ["B: 2,"]) },
      noTextMerge,
    ),
    withHeader("edited", ["A: 1,", "B: 2,"]),
    "one side unchanged outside the regions: the other side's text",
  );
  assert.equal(
    await mergeRegions(
      { base, ours: withHeader("ours", ["A: 1,"]), theirs: withHeader("theirs", ["B: 2,"]) },
      noTextMerge,
    ),
    undefined,
    "both sides changed the same text differently: left to a person",
  );
  assert.equal(
    await mergeRegions(
      { base, ours: withHeader("ours", []), theirs: withHeader("theirs", []) },
      () => Promise.resolve("<<<<<<< ours\n// ours\n=======\n// theirs\n>>>>>>> theirs\n"),
    ),
    undefined,
    "a text merge that answers conflict markers is no merge",
  );
});

Deno.test("mergeRegions keeps our generated list of a CONTEXT.md (kit docs rewrites it) and merges its prose", async () => {
  const context = (prose: string, list: string) =>
    `# billing\n\n${prose}\n\n<!-- kit:begin generated -->\n\n${list}\n\n<!-- kit:end -->\n`;
  assert.equal(
    await mergeRegions({
      base: context("Bills.", "- Messages: A"),
      ours: context("Bills.", "- Messages: A, B"),
      theirs: context("Bills customers.", "- Messages: A, C"),
    }, noTextMerge),
    context("Bills customers.", "- Messages: A, B"),
  );
});
