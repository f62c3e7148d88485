import assert from "node:assert/strict";
import { serveProject } from "./served_project.ts";
import { initializedProject } from "./test_project.ts";

Deno.test({
  name:
    "the generated dev server listens on 127.0.0.1 unless HOST says otherwise; a taken port is one line and exit 1",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject();
    const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const app = await serveProject(dir, "src/main.ts", {});
      try {
        assert.match(app.output(), /listening on http:\/\/127\.0\.0\.1:\d+ /);
      } finally {
        assert.equal(await app.stop(), 0, app.output());
      }
      const port = (taken.addr as Deno.NetAddr).port;
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "src/main.ts"],
        cwd: dir,
        env: { NO_COLOR: "1", DATABASE_URL: "", REDIS_URL: "", PORT: String(port) },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(run.stderr);
      assert.equal(run.code, 1, stderr);
      // One line of the platform's logger: time, level, component, code, message, count.
      assert.match(
        stderr,
        new RegExp(
          `^\\S+ ERROR app PORT_IN_USE port ${port} is in use on 127\\.0\\.0\\.1: set PORT to another, or stop what holds it count=1\\n$`,
        ),
      );
    } finally {
      taken.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
