/**
 * The generated reference pages (docs/reference/cli.md, docs/reference/error-codes.md) are what
 * `deno task docs:reference` writes from the `kit` command's help and the codes kit's packages
 * declare: a command, an option or a code changed without regenerating them fails here.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { referencePages } from "./docs_reference.ts";
import { helpOfJson, helpOfText } from "./docs_reference_cli.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const pages = await referencePages();

Deno.test("the committed reference pages are the generator's (deno task docs:reference)", async () => {
  for (const [path, generated] of pages) {
    const committed = await readFile(root + path, "utf8").catch(() => "(missing)");
    assert.ok(
      committed === generated,
      `${path} differs from what deno task docs:reference writes: run it and commit the page`,
    );
  }
});

Deno.test("the CLI reference has every command kit --help names, with its help", async () => {
  const help = new TextDecoder().decode(
    (await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/main.ts", "--help"],
      cwd: root,
      stdout: "piped",
    }).output()).stdout,
  );
  const page = pages.get("docs/reference/cli.md")!;
  for (const command of ["init", "generate", "docs", "resolve", "token", "slice add", "status"]) {
    assert.match(help, new RegExp(`^  ${command}\\b`, "m"), `kit --help names ${command}`);
    assert.ok(page.includes(`### kit ${command}\n`), `the page has a section for kit ${command}`);
  }
  for (const kind of ["route", "worker", "process-manager", "background-job"]) {
    assert.ok(page.includes(`### ${kind}\n`), `the page has the kind ${kind}`);
  }
  assert.match(page, /--context once per bounded context/);
});

Deno.test("the error-code reference has every code of the pipeline, the kernel and the dashboard", () => {
  const page = pages.get("docs/reference/error-codes.md")!;
  for (
    const [code, status] of [
      ["VALIDATION_FAILED", 422],
      ["SERVICE_UNAVAILABLE", 503],
      ["CONCURRENT_UPDATE", 409],
      ["INVALID_TENANT", 400],
      ["JOB_NOT_FOUND", 404],
      ["JOB_NOT_CANCELLABLE", 409],
      ["PROCESS_STATE_INVALID", 422],
    ] as const
  ) {
    assert.match(page, new RegExp(`\\| \`${code}\` +\\| (\`\\w+\` +\\| )?${status} `), code);
  }
});

Deno.test("helpOfText reads a command's synopsis and its continued help", () => {
  const help = helpOfText(
    "Usage: kit <command>\n\nCommands:\n  init [dir]   a new\n               project\n" +
      "  slice add <c> [--x]\n               appends a row\n\nOptions:\n  --help   this text\n",
  );
  assert.deepEqual(help.commands, [
    { name: "init", synopsis: "init [dir]", help: "a new project", options: [] },
    { name: "slice add", synopsis: "slice add <c> [--x]", help: "appends a row", options: [] },
  ]);
  assert.deepEqual(help.options, [{ name: "--help", help: "this text" }]);
});

Deno.test("helpOfJson reads commands, their options and subcommands, and refuses a nameless one", () => {
  const help = helpOfJson({
    commands: [
      {
        name: "token",
        usage: "token --sub <id>",
        summary: "prints a token",
        options: [{ name: "sub", help: "the subject" }],
      },
      { name: "slice", commands: [{ name: "done", usage: "<#>...", help: "marks rows done" }] },
    ],
    options: ["--version"],
  });
  assert.deepEqual(help.commands, [
    {
      name: "token",
      synopsis: "token --sub <id>",
      help: "prints a token",
      options: [{ name: "--sub", help: "the subject" }],
    },
    { name: "slice done", synopsis: "slice done <#>...", help: "marks rows done", options: [] },
  ]);
  assert.deepEqual(help.options, [{ name: "--version", help: "" }]);
  assert.throws(() => helpOfJson({ commands: [{ help: "x" }] }), /a command with no name/);
});

Deno.test("helpOfJson reads a command table's entries: help lines and parseArgs options", () => {
  const help = helpOfJson({
    commands: [{
      name: "generate",
      help: "  generate <kind> [options]   writes a part\n" +
        "                              of a context\n  generate --help [--json]   the kinds",
      options: {
        help: { type: "boolean", short: "h" },
        handles: { type: "string", multiple: true },
      },
    }],
  });
  const options = [{ name: "--help", help: "" }, {
    name: "--handles <value>",
    help: "(repeatable)",
  }];
  assert.deepEqual(help.commands, [
    {
      name: "generate",
      synopsis: "generate <kind> [options]",
      help: "writes a part of a context",
      options,
    },
    { name: "generate", synopsis: "generate --help [--json]", help: "the kinds", options },
  ]);
});
