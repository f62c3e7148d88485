/**
 * A Redis server of a test's own: `redis-server` on a free port with a data directory of its
 * own, started and stopped by its PID (never the shared server). For fault tests: stop it, kill
 * it, start it again on the same port and directory.
 *
 * Not published: tests import it by relative path.
 */

/** A private Redis server. */
/**
 * Whether a test needing a private redis-server is skipped: when `redis-server` is not installed,
 * outside CI (under CI such a test runs, and fails without it).
 */
export const skipWithoutRedisServer: boolean = (() => {
  try {
    new Deno.Command("redis-server", { args: ["--version"], stdout: "null" }).outputSync();
    return false;
  } catch {
    return Deno.env.get("CI") !== "true";
  }
})();

export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The port it listens on (kept across restarts). */
  readonly port: number;
  /**
   * Starts the server (again) with its arguments, or with `args` instead of them (a restart
   * without persistence: `["--appendonly", "no"]`); waits until it answers.
   */
  start(args?: readonly string[]): Promise<void>;
  /** Freezes the server (`SIGSTOP`): it holds its connections and answers nothing. */
  freeze(): void;
  /** Thaws a frozen server (`SIGCONT`). */
  thaw(): void;
  /** Stops the server: `SIGKILL` (a crash) or `SIGTERM` (a clean shutdown). */
  stop(signal?: "SIGKILL" | "SIGTERM"): Promise<void>;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

/** Starts `redis-server` with the extra arguments (e.g. `["--appendonly", "yes"]`). */
export async function startPrivateRedis(args: readonly string[] = []): Promise<PrivateRedis> {
  const dir = await Deno.makeTempDir({ prefix: "kit-redis-" });
  const port = freePort();
  let child: Deno.ChildProcess | undefined;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start(instead?: readonly string[]) {
      if (child !== undefined) return;
      child = new Deno.Command("redis-server", {
        args: [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--dir",
          dir,
          "--save",
          "",
          ...(instead ?? args),
        ],
        stdout: "null",
        stderr: "null",
      }).spawn();
      await untilAnswering(port);
    },
    freeze() {
      child?.kill("SIGSTOP");
    },
    thaw() {
      child?.kill("SIGCONT");
    },
    async stop(signal = "SIGKILL") {
      const running = child;
      if (running === undefined) return;
      child = undefined;
      running.kill("SIGCONT");
      running.kill(signal);
      await running.status;
    },
    async close() {
      await redis.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  await redis.start();
  return redis;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function untilAnswering(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode("PING\r\n"));
      const buffer = new Uint8Array(64);
      const n = await conn.read(buffer);
      conn.close();
      if (n !== null && new TextDecoder().decode(buffer.subarray(0, n)).startsWith("+PONG")) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer within 5 s`);
}
