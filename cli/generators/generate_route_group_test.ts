import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject, kitIn as kit, projectTree } from "../commands/test_project.ts";
import { pluralPath } from "./generate_route_group.ts";

Deno.test("a route group's prefix is the plural of its resource", () => {
  for (
    const [kebab, plural] of [
      ["loan", "loans"],
      ["loans", "loans"],
      ["address", "addresses"],
      ["category", "categories"],
      ["day", "days"],
      ["box", "boxes"],
      ["loan-offer", "loan-offers"],
      ["search", "searches"],
      ["person", "people"],
      ["people", "people"],
      ["status", "statuses"],
      ["analysis", "analyses"],
      ["staff", "staff"],
    ]
  ) assert.equal(pluralPath(kebab!), plural, kebab);
});

Deno.test("kit generate route-group: LoanRoutes and Loans answer under /loans; --prefix chooses another, checked", async () => {
  const dir = await initializedProject();
  try {
    const http = join(dir, "src/contexts/scheduling/presentation/http");
    assert.equal((await kit(dir, "generate", "route-group", "scheduling", "LoanRoutes")).result, 0);
    assert.match(await readFile(join(http, "loan.routes.ts"), "utf8"), /prefix: "\/loans"/);
    assert.equal((await kit(dir, "generate", "route-group", "scheduling", "Offers")).result, 0);
    assert.match(await readFile(join(http, "offers.routes.ts"), "utf8"), /prefix: "\/offers"/);
    const custom = await kit(
      dir,
      "generate",
      "route-group",
      "scheduling",
      "Desk",
      "--prefix",
      "/front-desk/today",
    );
    assert.equal(custom.result, 0, custom.out);
    assert.match(
      await readFile(join(http, "desk.routes.ts"), "utf8"),
      /prefix: "\/front-desk\/today"/,
    );
    const before = await projectTree(dir);
    for (const prefix of ["loans", "/Loans", "/loans/", "/a b", "//x"]) {
      const run = await kit(
        dir,
        "generate",
        "route-group",
        "scheduling",
        "Bad",
        "--prefix",
        prefix,
      );
      assert.equal(run.result, 1, prefix);
      assert.match(run.out, /^kit: Invalid --prefix '.*': one or more \/kebab-case segments/);
    }
    assert.deepEqual(await projectTree(dir), before, "a refused prefix writes nothing");
    const specs = await new Deno.Command(Deno.execPath(), {
      args: [
        "test",
        "-A",
        "--quiet",
        ...["loan", "offers", "desk"].map((r) =>
          `src/contexts/scheduling/presentation/http/${r}.routes.spec.ts`
        ),
      ],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(specs.success, new TextDecoder().decode(specs.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
