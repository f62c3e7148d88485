import assert from "node:assert/strict";
import { printed } from "./commands/test_project.ts";

Deno.test("kit <command> --help answers every command's usage, outside a project too", async () => {
  for (
    const command of [
      "init",
      "generate",
      "worker-scope",
      "docs",
      "dev",
      "depcruise-config",
      "check",
      "status",
      "todo",
      "hook",
    ]
  ) {
    for (const flag of ["--help", "-h"]) {
      const { code, out, err } = await printed([command, flag]);
      assert.equal(code, 0, `kit ${command} ${flag}: ${err}`);
      assert.equal(err, "");
      if (command !== "generate") assert.match(out, new RegExp(`^Usage: kit ${command}\\b`));
      else assert.match(out, /^adapter +an adapter of a port/);
    }
  }
  const { code, err } = await printed(["deploy", "--help"]);
  assert.equal(code, 1);
  assert.equal(err, "kit: Unknown command 'deploy': run 'kit --help'\n");
});

Deno.test("kit generate <kind> --help answers that kind: usage, the shared files it may write, an example", async () => {
  const command = await printed(["generate", "command", "--help"]);
  assert.equal(command.code, 0, command.err);
  assert.match(
    command.out,
    /^Usage: kit generate command <context> <Name> \[--permission <name> \[--grant <role>\]\] \[--aggregate <Aggregate> \[--creates\]\] \[--enqueues <Job>\] \[--publishes <Event>\] \[--update\] \[--local-only\]\n/,
  );
  assert.match(
    command.out,
    /src\/platform\/database\/migrations\.ts \(with --aggregate\), when the aggregate has no repository yet/,
  );
  assert.match(command.out, /Example:\n {2}kit generate command scheduling CancelAppointment/);
  const port = await printed(["generate", "port", "-h"]);
  assert.match(port.out, /may write \(--local-only refuses a run that would\):\n {2}none\n/);
  for (const kind of ["adapter", "adr", "worker", "route-group", "error-code"]) {
    const help = await printed(["generate", kind, "--help"]);
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, new RegExp(`^Usage: kit generate ${kind}\\b`));
    assert.match(help.out, new RegExp(`Example:\\n {2}kit generate ${kind}\\b`));
  }
  const unknown = await printed(["generate", "nope", "--help"]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /^kit: Unknown kind 'nope': one of adapter, adr, /);
});

Deno.test("kit init --help names the context kinds, the queues and the runtimes; init without a context is refused in one line, nothing written", async () => {
  const help = await printed(["init", "--help"]);
  assert.match(help.out, /core \(the business's edge\), supporting or generic/);
  assert.match(help.out, /database \(PostgreSQL, the default\), redis \(REDIS_URL\) or memory/);
  assert.match(help.out, /\[--runtime deno\|node\|workers \.\.\.\]/);
  assert.match(help.out, /node \(src\/main\.node\.ts, deno task build:node\)/);
  assert.match(help.out, /\[--no-git\]/);
  assert.match(help.out, /--no-git makes no git repository/);
  const dir = await Deno.makeTempDir({ prefix: "kit-init-help-" });
  try {
    const refused = await printed(["init", `${dir}/shop`]);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.err,
      "kit: init: name the project's bounded contexts, each with its kind (core, supporting or generic): kit init shop --context catalog:core --context billing:supporting\n",
    );
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written");
    // --package-manager was accepted and ignored: it is refused, naming it, nothing written.
    assert.doesNotMatch(help.out, /package-manager/);
    for (const flag of [["--package-manager", "npm"], ["--package-manager=pnpm"]]) {
      const ignored = await printed(["init", `${dir}/shop`, "--context", "catalog:core", ...flag]);
      assert.equal(ignored.code, 1);
      assert.match(ignored.err, /^kit: --package-manager is no option of kit init: .*deno task/);
      assert.equal(ignored.err.split("\n").length, 2, "one line");
      assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written");
    }
    const made = await printed([
      "init",
      `${dir}/shop`,
      "--context",
      "catalog:core",
      "--link",
      new URL("../", import.meta.url).pathname,
    ]);
    assert.equal(made.code, 0, made.err);
    assert.match(made.out, /^kit init: wrote \d+ files\ngit: .+\nNext:\n {2}cd .*shop\n/);
    assert.match(made.out, /deno task dev/);
    assert.match(made.out, /kit generate command catalog <Name> --permission <name>/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kit slice --help answers both of its forms", async () => {
  const { code, out } = await printed(["slice", "--help"]);
  assert.equal(code, 0);
  assert.match(out, /^Usage: kit slice add <context>/);
  assert.match(out, /\n\nUsage: kit slice done <#>\.\.\./);
});
