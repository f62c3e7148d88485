/**
 * The header-read deadline of a generated project's Node entry point (`src/main.node.ts`, bundled
 * by `deno task build:node`, run by Node): connections that never finish a request's headers,
 * and connections that send nothing, are closed once `HTTP_HEADERS_TIMEOUT_MS` has passed, while
 * a well-formed request is answered. (`Deno.serve` offers no such deadline; Workers' is
 * Cloudflare's: see docs/operations/http-deadlines.md.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveCommand } from "./served_project.ts";
import { initializedProject, runIn } from "./test_project.ts";

/** Opens a connection to `port` and sends `bytes`; answers when and how the server ended it. */
async function stalled(
  port: number,
  bytes: string,
): Promise<{ closedAfterMs: number; answer: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const started = performance.now();
  if (bytes.length > 0) await conn.write(new TextEncoder().encode(bytes));
  let answer = "";
  const buffer = new Uint8Array(4096);
  // A deadline of the test's own: a server that keeps the connection fails here, not hangs.
  const giveUp = setTimeout(() => conn.close(), 20_000);
  try {
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      answer += new TextDecoder().decode(buffer.subarray(0, n));
    }
  } catch {
    answer += "(closed by the test)";
  } finally {
    clearTimeout(giveUp);
  }
  try {
    conn.close();
  } catch { /* closed already */ }
  return { closedAfterMs: performance.now() - started, answer };
}

Deno.test({
  name:
    "a generated project on Node closes connections that never finish their headers once HTTP_HEADERS_TIMEOUT_MS has passed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await initializedProject(["--runtime", "deno", "--runtime", "node"]);
    try {
      await runIn(dir, Deno.execPath(), ["task", "build:node"]);
      const served = await serveCommand(dir, "node", [join("dist", "main.node.mjs")], {
        HTTP_HEADERS_TIMEOUT_MS: "1500",
      });
      try {
        const port = Number(new URL(served.url).port);
        const health = await fetch(`${served.url}/health`);
        await health.body?.cancel();
        assert.equal(health.status, 200, "a well-formed request is answered");
        const partial = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        const slowloris = await Promise.all([
          ...Array.from({ length: 20 }, () => stalled(port, partial)),
          ...Array.from({ length: 20 }, () => stalled(port, "GET /health HTTP/1.1\r\n")),
        ]);
        for (const { closedAfterMs, answer } of slowloris) {
          assert.ok(!answer.includes("(closed by the test)"), "the server closed it");
          assert.ok(closedAfterMs >= 1_400, `closed after ${closedAfterMs} ms, not before`);
          assert.ok(closedAfterMs < 4_000, `closed after ${closedAfterMs} ms`);
          assert.match(answer, /^HTTP\/1\.1 408 /, answer);
        }
        const silent = await Promise.all(Array.from({ length: 20 }, () => stalled(port, "")));
        for (const { closedAfterMs, answer } of silent) {
          assert.ok(!answer.includes("(closed by the test)"), "the server closed it");
          assert.ok(closedAfterMs < 8_000, `closed after ${closedAfterMs} ms`);
        }
        const after = await fetch(`${served.url}/health`);
        await after.body?.cancel();
        assert.equal(after.status, 200, "the server still answers");
      } finally {
        await served.stop();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
