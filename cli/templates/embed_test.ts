import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { embeddedModule, embeddedPath, templatePaths } from "./embed.ts";

Deno.test("embedded.ts is what `deno task templates:embed` writes from the templates now", async () => {
  assert.ok(
    readFileSync(embeddedPath, "utf8") === await embeddedModule(),
    "cli/templates/embedded.ts is stale: run `deno task templates:embed`",
  );
});

Deno.test("the check fixtures are not embedded, every template is", () => {
  const paths = templatePaths();
  assert.ok(paths.includes("src/main.ts"));
  assert.ok(paths.includes("src/contexts/$name$/$name$.module.ts"));
  assert.ok(!paths.includes("kit.config.json"));
  assert.ok(!paths.some((path) => path.endsWith(".declarations.ts")));
});
