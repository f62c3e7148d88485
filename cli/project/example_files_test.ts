/**
 * The example keeps the platform files kit's templates write, byte for byte once formatted with
 * the example's settings, where it has not grown its own: it was made with the generators and
 * stays regenerable. A template changed without the example (or the reverse) fails here.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatPlan } from "../files/format_files.ts";
import { integrationDocsFile, isEventFile } from "./docs_templates.ts";

const example = fileURLToPath(new URL("../../example/", import.meta.url));

Deno.test("the example's integration documents come from kit's templates, as generated", async () => {
  const planned = [
    { path: "src/platform/docs/integration-docs.ts", contents: integrationDocsFile() },
    { path: "src/platform/docs/is-event.ts", contents: isEventFile() },
  ];
  for (const write of await formatPlan(example, planned)) {
    assert.equal(
      readFileSync(join(example, write.path), "utf8"),
      write.contents,
      `example/${write.path} differs from what kit generates`,
    );
  }
});
