/**
 * Day two (`kit init`, the refused route and `--help` through the real executable; the other
 * generators through the same `main`, in this process): a project with an aggregate, its repository, a command
 * that creates it, a command on it, a search query and their routes; a required field added by
 * hand to the aggregate (snapshot and factory), to the creating command and to its handler. Then
 * `deno check` finds errors only in the aggregate's test builder and in that command's route;
 * `kit generate route … --update` and the one edit of the builder make every generated route and
 * spec compile and pass, the new input in the route's schema and in the OpenAPI document. Then
 * inputs the factory does not take, added to the creating command and to another: errors only in
 * their specs' kit parts and their routes, which the update rewrites. And a later generator
 * writes the factory's new signature.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { kitExecutable, kitIn, runProgram as run } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const fleet = "src/contexts/fleet";

/** `kit <args>` as `deno install -g -n kit` runs it; fails with its output unless it exits 0. */
async function kit(cwd: string, ...args: string[]): Promise<string> {
  const { code, out } = await run(cwd, Deno.execPath(), [...kitExecutable, ...args]);
  assert.equal(code, 0, `kit ${args.join(" ")}:\n${out}`);
  return out;
}

/** `kit <args>` run in this process in `cwd`; fails with its output unless it exits 0. */
async function generate(cwd: string, ...args: string[]): Promise<void> {
  const { result, out } = await kitIn(cwd, ...args);
  assert.equal(result, 0, `kit ${args.join(" ")}:\n${out}`);
}

/** Replaces `from` in a file of the project: a hand edit (which must find what it replaces). */
async function edit(dir: string, path: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(join(dir, path), "utf8");
  const edited = text.replace(from, to);
  assert.notEqual(edited, text, `${path} has no ${from}`);
  await writeFile(join(dir, path), edited);
}

/** The specs of the context fleet. */
async function specs(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string): Promise<void> => {
    for await (const entry of Deno.readDir(join(dir, path))) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(child);
      else if (entry.name.endsWith(".spec.ts")) found.push(child);
    }
  };
  await walk(fleet);
  assert.ok(found.length >= 8, found.join(", "));
  return found.sort();
}

/** The project's files `deno check` reports errors in, with the number of errors in each. */
async function filesWithErrors(dir: string): Promise<Map<string, number>> {
  const { code, out } = await run(dir, Deno.execPath(), ["check", "--quiet", "src"]);
  const files = new Map<string, number>();
  for (const match of out.matchAll(/^ {4}at file:\/\/(\S+?):\d+:\d+$/gm)) {
    const path = match[1]!.slice(match[1]!.indexOf(fleet));
    files.set(path, (files.get(path) ?? 0) + 1);
  }
  assert.equal(code === 0, files.size === 0, out);
  return files;
}

/**
 * Runs the context's specs; fails with their output unless they pass. Each run follows a clean
 * {@linkcode filesWithErrors} of `src` (every spec and what it imports, type-checked): the specs
 * run without type-checking them a second time.
 */
async function specsPass(dir: string): Promise<void> {
  const tested = await run(dir, Deno.execPath(), [
    "test",
    "-A",
    "--quiet",
    "--no-check",
    ...await specs(dir),
  ]);
  assert.equal(tested.code, 0, tested.out);
}

Deno.test({
  name:
    "a field added to an aggregate and its creating command: errors only in its builder and that route, then --update",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "kit-domain-change-" });
    const dir = join(parent, "rentals");
    try {
      await kit(parent, "init", dir, "--context", "fleet:core", "--link", checkout);
      for (
        const args of [
          "generate aggregate fleet Bike",
          "generate repository fleet Bike",
          "generate command fleet RegisterBike --aggregate Bike --creates --permission bike.register",
          "generate command fleet RetireBike --aggregate Bike",
          "generate query fleet ListBikes --search --aggregate Bike",
          "generate route-group fleet BikeRoutes",
          "generate route fleet RegisterBike",
          "generate route fleet RetireBike",
          "generate route fleet ListBikes",
        ]
      ) await generate(dir, ...args.split(" "));

      // What a human decides: the field, in the aggregate, the creating command and its handler.
      const aggregate = `${fleet}/domain/bike.ts`;
      await edit(dir, aggregate, /readonly id: string;\n/, "$&  readonly model: string;\n");
      await edit(
        dir,
        aggregate,
        "static create(id: string)",
        "static create(id: string, model: string)",
      );
      await edit(dir, aggregate, "new Bike({ id })", "new Bike({ id, model })");
      const register = `${fleet}/application/commands/register-bike/register-bike`;
      await edit(
        dir,
        `${register}.command.ts`,
        /readonly bikeId: string/,
        "$&, readonly model: string",
      );
      await edit(
        dir,
        `${register}.handler.ts`,
        /Bike\.create\(command\.bikeId\)/,
        "Bike.create(command.bikeId, command.model)",
      );

      const builder = `${fleet}/domain/bike.builder.ts`;
      const controller = `${fleet}/presentation/http/register-bike.controller.ts`;
      const broken = await filesWithErrors(dir);
      assert.deepEqual(
        [...broken.keys()].filter((path) => path !== builder && path !== controller),
        [],
        `errors outside the builder and the changed route: ${JSON.stringify([...broken])}`,
      );
      assert.ok(broken.has(builder), "the builder says what it lacks");

      // Generating the route again is refused, naming the command that updates it.
      const again = await run(dir, Deno.execPath(), [
        ...kitExecutable,
        ..."generate route fleet RegisterBike".split(" "),
      ]);
      assert.notEqual(again.code, 0);
      assert.match(again.out, /kit generate route fleet RegisterBike --update/);

      // The update is documented where a user looks: --help, and --help --json for agents.
      assert.match(
        await kit(dir, "generate", "route", "--help"),
        /\[--update\][\s\S]*With --update/,
      );
      const kinds = JSON.parse(await kit(dir, "generate", "--help", "--json")).kinds as {
        kind: string;
        options: string[];
      }[];
      assert.ok(kinds.find((k) => k.kind === "route")!.options.includes("--update"));

      // A hand edit outside the route's kit regions is kept by the update.
      await edit(dir, controller, /export class RegisterBikeController/, "// Kept by hand.\n$&");
      await generate(dir, ..."generate route fleet RegisterBike --update".split(" "));
      await edit(dir, builder, /return \[id\];/, 'return [id, "model-1"];');
      assert.deepEqual([...(await filesWithErrors(dir))], []);

      const route = await readFile(join(dir, controller), "utf8");
      assert.match(route, /model: z\.string\(\)\.max\(1000\)/);
      assert.match(route, /request\.body\.model/);
      assert.match(route, /\/\/ Kept by hand\.\nexport class RegisterBikeController/);
      await specsPass(dir);

      // Inputs the aggregate's factory does not take: a creating command's and another command's.
      // Their specs make them in kit's part ('message under test'), which the update rewrites.
      const retire = `${fleet}/application/commands/retire-bike/retire-bike`;
      await edit(
        dir,
        `${register}.command.ts`,
        /readonly model: string/,
        "$&, readonly color: string",
      );
      await edit(
        dir,
        `${retire}.command.ts`,
        /readonly bikeId: string/,
        "$&, readonly reason: string",
      );
      await edit(dir, `${register}.spec.ts`, /\/\*\* The version of/, "// Kept by hand too.\n$&");
      const retireRoute = `${fleet}/presentation/http/retire-bike.controller.ts`;
      assert.deepEqual([...(await filesWithErrors(dir)).keys()].sort(), [
        `${register}.spec.ts`,
        `${retire}.spec.ts`,
        controller,
        retireRoute,
      ]);
      await generate(dir, ..."generate route fleet RegisterBike --update".split(" "));
      // The message's own update: its spec's part, and its route's parts since it has a route.
      await generate(dir, ..."generate command fleet RetireBike --update".split(" "));
      assert.deepEqual([...(await filesWithErrors(dir))], []);
      const registerSpec = await readFile(join(dir, `${register}.spec.ts`), "utf8");
      assert.match(
        registerSpec,
        /const made = newBikeArguments\(id\);\n\s*return new RegisterBike\(actor, id, made\[1\], "color-1"\);/,
      );
      assert.match(registerSpec, /\/\/ Kept by hand too\.\n\/\*\* The version of/);
      assert.match(
        await readFile(join(dir, `${retire}.spec.ts`), "utf8"),
        /return new RetireBike\(actor, id, "reason-1"\);/,
      );
      assert.match(await readFile(join(dir, retireRoute), "utf8"), /reason: z\.string\(\)/);
      // These specs pass: the last run of the specs below runs them as they are now (the later
      // generators leave them unchanged), not a run of its own here.
      const specsNow = await specs(dir);
      const specTexts = await Promise.all(
        specsNow.map((path) => readFile(join(dir, path), "utf8")),
      );

      // The OpenAPI document the project writes has the new input.
      await run(dir, Deno.execPath(), ["task", "docs:generate"]);
      const document = parse(await readFile(join(dir, "openapi/rentals.yaml"), "utf8")) as {
        paths: Record<string, Record<string, { requestBody?: unknown }>>;
      };
      const body = document.paths["/bikes"]!.post!.requestBody as {
        content: Record<string, { schema: { properties: object; required: string[] } }>;
      };
      const schema = body.content["application/json"]!.schema;
      assert.deepEqual(Object.keys(schema.properties), ["bikeId", "model", "color"]);
      assert.ok(schema.required.includes("model"));

      // Later generators write the factory as it is now.
      await generate(
        dir,
        ..."generate command fleet ImportBike --aggregate Bike --creates".split(" "),
      );
      await generate(dir, ..."generate command fleet RepairBike --aggregate Bike".split(" "));
      await generate(dir, ..."generate route fleet ImportBike --path /imports".split(" "));
      const imported = `${fleet}/application/commands/import-bike/import-bike`;
      assert.match(
        await readFile(join(dir, `${imported}.command.ts`), "utf8"),
        /readonly model: string/,
      );
      assert.match(
        await readFile(join(dir, `${imported}.handler.ts`), "utf8"),
        /Bike\.create\(command\.bikeId, command\.model\)/,
      );
      assert.deepEqual([...(await filesWithErrors(dir))], []);
      for (const [i, path] of specsNow.entries()) {
        assert.equal(await readFile(join(dir, path), "utf8"), specTexts[i], `${path} unchanged`);
      }
      await specsPass(dir);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});
