import assert from "node:assert/strict";
import { readdirSync, readlinkSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { initializedProject } from "./test_project.ts";

/** The processes whose working directory is in `dir` (read from /proc), by id. */
function processesIn(dir: string): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`).startsWith(dir);
    } catch {
      return false;
    }
  }).map(Number);
}

async function until(what: string, done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the server on `port` answers (any status), 120 s at most. */
async function untilAnswered(port: number, gone: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !gone()) {
    try {
      await (await fetch(`http://127.0.0.1:${port}/health`)).body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error("deno task dev did not answer within 120 s");
}

for (const stop of ["SIGTERM", "SIGINT"] as const) {
  Deno.test({
    name:
      `${stop} to deno task dev ends the server, its watcher and the docs watch: a later change restarts nothing`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const dir = await Deno.realPath(await initializedProject());
      const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (free.addr as Deno.NetAddr).port;
      free.close();
      const task = new Deno.Command(Deno.execPath(), {
        args: ["task", "dev"],
        cwd: dir,
        env: { NO_COLOR: "1", DATABASE_URL: "", REDIS_URL: "", PORT: String(port) },
        // Its output nowhere, as in a closed terminal: no broken pipe ends a process left over.
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      let exited = false;
      const status = task.status.finally(() => (exited = true));
      try {
        await untilAnswered(port, () => exited);
        assert.ok(!exited, "deno task dev runs");
        assert.ok(processesIn(dir).length >= 2, "deno task, kit dev and the server run");
        task.kill(stop);
        await until(
          "every process of the project to end",
          () => processesIn(dir).length === 0,
          30_000,
        );
        // A change after the stop: nothing is there to restart the server.
        await appendFile(`${dir}/src/main.ts`, "\n");
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.deepEqual(processesIn(dir), []);
        await assert.rejects(() => fetch(`http://127.0.0.1:${port}/health`));
        await until("deno task dev to end", () => exited, 5_000);
        assert.equal((await status).code, 0);
      } finally {
        for (const pid of processesIn(dir)) Deno.kill(pid, "SIGKILL");
        if (!exited) task.kill("SIGKILL");
        await status;
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
