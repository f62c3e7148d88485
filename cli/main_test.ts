import assert from "node:assert/strict";
import { main } from "./main.ts";

async function printed(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const [log, error] = [console.log, console.error];
  console.log = (...parts: unknown[]) => void (out += parts.join(" ") + "\n");
  console.error = (...parts: unknown[]) => void (err += parts.join(" ") + "\n");
  try {
    return { code: await main(args, "/"), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("kit <command> --help answers every command's usage, outside a project too", async () => {
  for (
    const command of [
      "init",
      "generate",
      "worker-scope",
      "docs",
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
