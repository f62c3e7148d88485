import assert from "node:assert/strict";
import { main } from "../main.ts";

const checkout = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test({
  name: "a background job sending a command with no input lints clean (no empty payload type)",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-bj-" });
    try {
      assert.equal(await main(["init", dir, "--context", "alerts:core", "--link", checkout]), 0);
      assert.equal(await main(["generate", "command", "alerts", "Ping"], dir), 0);
      assert.equal(
        await main(["generate", "background-job", "alerts", "PingLater", "--command", "Ping"], dir),
        0,
      );
      const lint = await new Deno.Command(Deno.execPath(), {
        args: ["lint"],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      assert.equal(lint.success, true, new TextDecoder().decode(lint.stderr));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
