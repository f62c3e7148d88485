import assert from "node:assert/strict";
import { mergeRegions } from "../files/merge_regions.ts";
import { generatedParts, replaceGeneratedParts } from "./generated_parts.ts";

Deno.test("kit's parts of a file are replaced whole; the lines outside them are kept", () => {
  const generated = "// kit:begin route schemas\nconst a = 2;\n// kit:end\nlast\n";
  const current =
    'mine\n// kit:begin route schemas\nconst a = 1;\nconst b = 1;\n// kit:end\n// kit:begin permissions\n"x",\n// kit:end\nalso mine\n';
  assert.deepEqual([...generatedParts(current).keys()], ["route schemas"]);
  assert.equal(
    replaceGeneratedParts(current, generated, "f.ts", "fix it"),
    'mine\n// kit:begin route schemas\nconst a = 2;\n// kit:end\n// kit:begin permissions\n"x",\n// kit:end\nalso mine\n',
  );
  assert.throws(
    () => replaceGeneratedParts("mine\n", generated, "f.ts", "fix it"),
    /f\.ts has no '\/\/ kit:begin route schemas'.*: fix it/,
  );
});

Deno.test("kit resolve merges kit's parts of a route as text, never as a set of entries", async () => {
  const side = (schema: string) =>
    `// kit:begin route schemas\nconst bodySchema = z.object({ ${schema} });\n// kit:end\n`;
  const asked: string[] = [];
  const merged = await mergeRegions(
    { base: side("a: z.string()"), ours: side("b: z.string()"), theirs: side("c: z.string()") },
    (sides) => {
      asked.push(sides.ours);
      return Promise.resolve(undefined);
    },
  );
  assert.equal(merged, undefined, "left to a person (or --update), not united");
  assert.deepEqual(asked, [side("b: z.string()")]);
});
