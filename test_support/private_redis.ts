/**
 * A Redis server of a test's own: `redis-server` on a free port with a data directory of its
 * own, started and stopped by its PID (never the shared server). For fault tests: stop it, kill
 * it, start it again on the same port and directory. And a private Redis Cluster of six such
 * servers (`startPrivateRedisCluster`), each ended by the PID it was started with, also when the
 * test run ends before `close()` (an `unload` listener).
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

/** Sends `FLUSHALL` and `WAIT 1 5000` on one connection; fails unless a replica had it. */
async function untilReplicated(port: number): Promise<void> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode("FLUSHALL\r\nWAIT 1 5000\r\n"));
    let text = "";
    const buffer = new Uint8Array(256);
    while (!/\+OK\r\n:\d+\r\n/.test(text)) {
      const n = await conn.read(buffer);
      if (n === null) break;
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    const replicas = Number(/\+OK\r\n:(\d+)\r\n/.exec(text)?.[1] ?? 0);
    if (replicas < 1) throw new Error(`the master on ${port} has no replica that acknowledges`);
  } finally {
    conn.close();
  }
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

/** One node of a private Redis Cluster. */
export interface PrivateClusterNode {
  /** The port it listens on. */
  readonly port: number;
  /** Whether its process is running (false once killed). */
  readonly running: boolean;
}

/** A private Redis Cluster: three masters, each with one replica, on free ports. */
export interface PrivateRedisCluster {
  /** The six nodes, in the order `redis-cli --cluster create` was given them. */
  readonly nodes: readonly PrivateClusterNode[];
  /** The nodes ioredis's `Cluster` starts from (`{ host, port }`). */
  readonly startupNodes: readonly { host: string; port: number }[];
  /** The port of the master that serves the key's slot now (asked of a running node). */
  masterOf(key: string): Promise<number>;
  /** The port of the replica of the master on `port`. */
  replicaOf(port: number): Promise<number>;
  /** Crashes the node on `port` (`SIGKILL` to the PID this helper started). */
  kill(port: number): Promise<void>;
  /**
   * Starts a killed node again, with its directory (its `nodes.conf`: it rejoins the cluster,
   * a replica of the node that took over) and arguments; waits until it answers.
   */
  restart(port: number): Promise<void>;
  /** Freezes the node on `port` (`SIGSTOP`); `thaw` resumes it. */
  freeze(port: number): void;
  /** Resumes a frozen node (`SIGCONT`). */
  thaw(port: number): void;
  /** Runs `redis-cli -p <port> <args>` and answers its output. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** Waits (up to 20 s) until every running node says `cluster_state:ok`. */
  untilHealthy(): Promise<void>;
  /** Stops every node it started (by PID) and removes their directories. */
  close(): Promise<void>;
}

/**
 * Starts six `redis-server --cluster-enabled yes` on free ports (and free bus ports), each in
 * a directory of its own, joins them with `redis-cli --cluster create ... --cluster-replicas 1`,
 * and waits until the cluster is healthy. Every node runs with `args` too (the durability
 * settings: `["--appendonly", "yes"]`); `cluster-node-timeout` is 1,000 ms so that a fail-over
 * takes about a second, and `repl-diskless-sync-delay` 0 so that replicas sync at once (about
 * 2.5 s to start in all, against 8 s with the default delay). Stops what it started when the
 * creation fails.
 */
export async function startPrivateRedisCluster(
  args: readonly string[] = [],
): Promise<PrivateRedisCluster> {
  // A node whose free port was taken between the probe and its start (the suite opens many
  // connections at once) exits at once: the cluster is started again on other ports, at most
  // three times, and the last failure names every attempt's.
  const failures: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await startClusterOnce(args);
    } catch (error) {
      failures.push(`attempt ${attempt}: ${error instanceof Error ? error.message : error}`);
    }
  }
  throw new Error(`the private Redis Cluster did not start:\n${failures.join("\n")}`);
}

/** Ends a child process, stopped or not; one that has ended already is left as it is. */
function endChild(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  } catch {
    // it has ended already (a node that could not start, or one killed before)
  }
}

async function startClusterOnce(args: readonly string[]): Promise<PrivateRedisCluster> {
  const dir = await Deno.makeTempDir({ prefix: "kit-redis-cluster-" });
  const children = new Map<number, Deno.ChildProcess>();
  const ports: number[] = [];
  const cli = async (port: number, ...command: string[]): Promise<string> => {
    const output = await new Deno.Command("redis-cli", {
      args: ["-h", "127.0.0.1", "-p", String(port), ...command],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    if (!output.success) throw new Error(`redis-cli -p ${port} ${command.join(" ")}: ${text}`);
    return text;
  };
  const stopAll = async (): Promise<void> => {
    globalThis.removeEventListener("unload", onUnload);
    for (const [port, child] of children) {
      children.delete(port);
      endChild(child);
      await child.status;
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const running = () => ports.filter((port) => children.has(port));
  const buses = new Map<number, number>();
  const spawn = (port: number): void => {
    children.set(
      port,
      new Deno.Command("redis-server", {
        args: [
          "--port",
          String(port),
          "--cluster-port",
          String(buses.get(port)),
          "--bind",
          "127.0.0.1",
          "--dir",
          `${dir}/${port}`,
          "--save",
          "",
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          "nodes.conf",
          "--cluster-node-timeout",
          "1000",
          // A replica's first sync starts at once (the default waits 5 s for more replicas).
          "--repl-diskless-sync-delay",
          "0",
          ...args,
        ],
        stdout: "null",
        stderr: "null",
      }).spawn(),
    );
  };
  // A test run that ends (or is filtered) before close() still ends the nodes it started.
  const onUnload = () => {
    for (const child of children.values()) endChild(child);
    children.clear();
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // removed already
    }
  };
  globalThis.addEventListener("unload", onUnload);
  const cluster: PrivateRedisCluster = {
    get nodes() {
      return ports.map((port) => ({ port, running: children.has(port) }));
    },
    startupNodes: [],
    async masterOf(key) {
      const slot = Number((await cli(running()[0]!, "CLUSTER", "KEYSLOT", key)).trim());
      for (const port of running()) {
        const nodes = await cli(port, "CLUSTER", "NODES");
        for (const line of nodes.split("\n")) {
          const fields = line.split(" ");
          if (!fields[2]?.includes("master") || fields[2].includes("fail")) continue;
          const served = fields.slice(8).some((range) => {
            const [from, to] = range.split("-").map(Number);
            return slot >= from! && slot <= (to ?? from!);
          });
          if (served) return Number(fields[1]!.split(":")[1]!.split("@")[0]);
        }
      }
      throw new Error(`no running master serves the slot of '${key}'`);
    },
    async replicaOf(port) {
      const nodes = await cli(port, "CLUSTER", "NODES");
      const self = nodes.split("\n").find((line) => line.split(" ")[2]?.includes("myself"));
      const id = self!.split(" ")[0];
      const replica = nodes.split("\n").find((line) => line.split(" ")[3] === id);
      if (replica === undefined) throw new Error(`the master on ${port} has no replica`);
      return Number(replica.split(" ")[1]!.split(":")[1]!.split("@")[0]);
    },
    async kill(port) {
      const child = children.get(port);
      if (child === undefined) return;
      children.delete(port);
      endChild(child);
      await child.status;
    },
    async restart(port) {
      if (children.has(port)) return;
      spawn(port);
      await untilAnswering(port);
    },
    freeze(port) {
      children.get(port)?.kill("SIGSTOP");
    },
    thaw(port) {
      children.get(port)?.kill("SIGCONT");
    },
    cli,
    async untilHealthy() {
      for (let i = 0; i < 400; i++) {
        const states = await Promise.all(
          running().map((port) => cli(port, "CLUSTER", "INFO").catch(() => "")),
        );
        if (states.every((info) => info.includes("cluster_state:ok"))) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the private Redis Cluster did not become healthy within 20 s");
    },
    close: stopAll,
  };
  try {
    for (let i = 0; i < 6; i++) {
      const port = freePort();
      let bus = freePort();
      while (bus === port) bus = freePort();
      const nodeDir = `${dir}/${port}`;
      await Deno.mkdir(nodeDir);
      ports.push(port);
      buses.set(port, bus);
      spawn(port);
    }
    for (const port of ports) await untilAnswering(port);
    await cli(
      ports[0]!,
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      "1",
      "--cluster-yes",
    );
    await cluster.untilHealthy();
    // Every node knows every other one, and each replica replicates (else a fail-over stalls).
    for (let i = 0; i < 400; i++) {
      const views = await Promise.all(ports.map((port) => cli(port, "CLUSTER", "NODES")));
      const replication = await Promise.all(ports.map((port) => cli(port, "INFO", "replication")));
      const complete = views.every((view) => view.trim().split("\n").length === 6);
      const linked = replication.filter((info) =>
        info.includes("master_link_status:up")
      ).length === 3;
      if (complete && linked) {
        // The first write a replica acknowledges can take hundreds of ms after its sync: one
        // replicated write (FLUSHALL, on an empty cluster) and WAIT per master, before any test.
        for (const [at, info] of replication.entries()) {
          if (info.includes("role:master")) await untilReplicated(ports[at]!);
        }
        break;
      }
      if (i === 399) {
        throw new Error("the private Redis Cluster's replicas did not link within 20 s");
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  (cluster.startupNodes as { host: string; port: number }[]).push(
    ...ports.map((port) => ({ host: "127.0.0.1", port })),
  );
  return cluster;
}
