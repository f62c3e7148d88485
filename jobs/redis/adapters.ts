import { consoleLogger, type Logger, summarisingLogger } from "@kit/kernel";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { Cluster as IORedisCluster, Redis as IORedis } from "ioredis";
import type { RedisRunOptions, RedisScripting } from "./redis_scripting.ts";
import { RedisUnavailableError, withinDeadline } from "./redis_unavailable.ts";

/**
 * The scripting interface over an `@upstash/redis` client (HTTP). Build the client with
 * `automaticDeserialization: false`, so that replies stay as Redis sent them.
 */
export function upstashScripting(redis: UpstashRedis): RedisScripting {
  return {
    evalsha: (sha, keys, args) => redis.evalsha(sha, [...keys], args.map(String)),
    eval: (script, keys, args) => redis.eval(script, [...keys], args.map(String)),
  };
}

/**
 * The `ioredis` options that make a store fail fast while Redis is down, instead of queueing
 * commands until it returns: connect within `connectTimeoutMs` (default 2,000), no command
 * queued while disconnected (`enableOfflineQueue: false`), a command failed after one retry
 * (`maxRetriesPerRequest: 1`) and within `commandTimeoutMs` (default 2,000). The client keeps
 * reconnecting in the background. Spread them into `new Redis(url, { ...failFastRedisOptions() })`.
 */
export function failFastRedisOptions(
  options: { connectTimeoutMs?: number; commandTimeoutMs?: number } = {},
): {
  connectTimeout: number;
  commandTimeout: number;
  maxRetriesPerRequest: number;
  enableOfflineQueue: boolean;
} {
  return {
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    commandTimeout: options.commandTimeoutMs ?? 2_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  };
}

/** Options of `tcpScripting`. */
export interface TcpScriptingOptions {
  /** Where the client's connection errors go (default: a summarising console logger). */
  readonly logger?: Logger;
  /**
   * The replicas that must have an enqueue before it is acknowledged: after the script, on the
   * same connection, `WAIT <replicas> <replicaTimeoutMs>`; fewer replicas in time reject the
   * enqueue with `RedisUnavailableError` (503: not acknowledged — the job may still run, an
   * idempotency key makes the retry safe). Default 1 on a Redis Cluster client (each master has
   * a replica to fail over to: an enqueue only on the master is lost when the replica takes
   * over), 0 on a single server. 0: acknowledge once the master has it.
   */
  readonly replicas?: number;
  /** Milliseconds `WAIT` waits for the replicas (default 500). */
  readonly replicaTimeoutMs?: number;
}

/**
 * The scripting interface over an `ioredis` client (TCP): a `Redis` or a `Cluster` (then the
 * store's keys need a hash tag, see `RedisJobStoreOptions.prefix`, and enqueues wait for a
 * replica, see `replicas`). Subscriptions go over a duplicate of the client (a subscribed
 * connection runs no other command), so that idle workers wake as soon as a job is enqueued.
 * Listens to the client's (and the duplicate's) `error` events, which ioredis emits at each
 * failed reconnection while Redis is down: each is a `warn` line of `logger` (component `redis`,
 * code `REDIS_UNAVAILABLE`; default: a summarising console logger, one line then one per 10 s),
 * never an "Unhandled error event".
 */
export function tcpScripting(
  redis: IORedis | IORedisCluster,
  options: TcpScriptingOptions = {},
): RedisScripting {
  const logger = options.logger ?? summarisingLogger(consoleLogger());
  const cluster = redis.isCluster;
  const replicas = options.replicas ?? (cluster ? 1 : 0);
  const replicaTimeoutMs = options.replicaTimeoutMs ?? 500;
  if (!Number.isInteger(replicas) || replicas < 0) {
    throw new TypeError(`tcpScripting: replicas must be an integer >= 0, got ${replicas}`);
  }
  if (!Number.isInteger(replicaTimeoutMs) || replicaTimeoutMs < 1) {
    throw new TypeError(
      `tcpScripting: replicaTimeoutMs must be an integer >= 1, got ${replicaTimeoutMs}`,
    );
  }
  const onError = (error: unknown) =>
    logger.log({
      level: "warn",
      component: "redis",
      code: "REDIS_UNAVAILABLE",
      message: "Redis is out of reach: the client reconnects in the background",
      error,
    });
  redis.on("error", onError);
  const run = async (
    command: "evalsha" | "eval",
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    runOptions: RedisRunOptions | undefined,
  ): Promise<unknown> => {
    // The arguments go as one array, which ioredis flattens: spread into the call, the tens of
    // thousands of a large insert overflow the stack.
    const argv = [...keys, ...args.map(String)];
    if (replicas === 0 || runOptions?.replicated !== true) {
      return await redis[command](script, keys.length, argv);
    }
    // One pipeline: the script and WAIT on the connection to the slot's master, in that order,
    // so that WAIT counts the replicas that have the script's writes.
    const replies = await redis.pipeline()[command](script, keys.length, argv)
      .wait(replicas, replicaTimeoutMs)
      .exec();
    const [scriptError, reply] = replies?.[0] ?? [new Error("Redis answered no reply")];
    if (scriptError) throw scriptError;
    const [waitError, acknowledged] = replies?.[1] ?? [new Error("Redis answered no reply")];
    if (waitError) throw waitError;
    if (Number(acknowledged) < replicas) {
      throw new RedisUnavailableError(
        `${acknowledged} of the ${replicas} replica(s) required had the write within ` +
          `${replicaTimeoutMs} ms: not acknowledged (it may still run), retry later`,
      );
    }
    return reply;
  };
  return {
    cluster,
    evalsha: (sha, keys, args, runOptions) => run("evalsha", sha, keys, args, runOptions),
    eval: (script, keys, args, runOptions) => run("eval", script, keys, args, runOptions),
    async config(parameter) {
      if (!redis.isCluster) {
        const reply = await (redis as IORedis).config("GET", parameter) as string[];
        return reply[1];
      }
      // Every node, replicas included (each may become a master), at once: one value when they
      // agree. A node that does not answer within a second (down, loading, syncing) is not read
      // this time; a refusal (CONFIG disabled) is the answer, and the check falls back to INFO.
      // A client just built knows no node until it has read the slots: wait for it first.
      await untilClusterReady(redis as IORedisCluster);
      const nodes = (redis as IORedisCluster).nodes("all");
      const settled = await Promise.allSettled(
        nodes.map((node) =>
          withinDeadline("CONFIG GET", clusterNodeConfigTimeoutMs, async () => {
            if (node.status === "wait") await node.connect();
            const reply = await node.config("GET", parameter) as string[];
            return reply[1] ?? "?";
          })
        ),
      );
      const found = new Map<string, string[]>();
      const unanswered: unknown[] = [];
      settled.forEach((result, i) => {
        if (result.status === "rejected") {
          if (!(result.reason instanceof RedisUnavailableError)) throw result.reason;
          unanswered.push(result.reason);
          return;
        }
        const node = `${nodes[i]!.options.host}:${nodes[i]!.options.port}`;
        found.set(result.value, [...found.get(result.value) ?? [], node]);
      });
      if (found.size === 0) {
        throw unanswered[0] ?? new RedisUnavailableError("no cluster node known");
      }
      if (found.size <= 1) return [...found.keys()][0];
      return [...found].map(([value, nodes]) => `${value} on ${nodes.join(" ")}`).join(", ");
    },
    async subscribe(channel, onMessage) {
      const subscriber = redis.isCluster
        ? (redis as IORedisCluster).duplicate(undefined, { enableOfflineQueue: true })
        : (redis as IORedis).duplicate({ enableOfflineQueue: true });
      subscriber.on("error", onError);
      subscriber.on("message", (from: string, message: string) => {
        if (from === channel) onMessage(message);
      });
      try {
        await subscriber.subscribe(channel);
      } catch (error) {
        subscriber.disconnect();
        throw error;
      }
      return async function unsubscribe() {
        await subscriber.quit().catch(() => subscriber.disconnect());
      };
    },
  };
}

/** How long the settings of one cluster node may take to read before it is skipped. */
const clusterNodeConfigTimeoutMs = 1_000;

/** How long a cluster client may take to learn its nodes before a check gives up. */
const clusterReadyTimeoutMs = 2_000;

/** Resolves once the cluster client is ready (connecting it when lazy); rejects as unreachable. */
async function untilClusterReady(cluster: IORedisCluster): Promise<void> {
  if (cluster.status === "ready") return;
  if (cluster.status === "wait") return void await cluster.connect();
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      cluster.off("ready", onReady);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onReady = () => done();
    const timer = setTimeout(
      () => done(new Error("Connection is closed: the cluster client found no node in time")),
      clusterReadyTimeoutMs,
    );
    cluster.on("ready", onReady);
  });
}
