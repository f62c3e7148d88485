/**
 * The small command interface the Redis job store needs: running Lua scripts. Every operation of
 * the store is one script, so that claims, leases, reports and idempotency are atomic. Two
 * adapters implement it: `upstashScripting` (HTTP, for edge and serverless) and `tcpScripting`
 * (a TCP client, for self-hosted Redis).
 */
export interface RedisScripting {
  /**
   * True when the client is a Redis Cluster client: a script runs on the master of the slot of
   * its first key, and every key it touches must hash to that slot (the store then needs a
   * prefix with a hash tag, `{kit:jobs}:` by default).
   */
  readonly cluster?: boolean;
  /**
   * Runs a loaded script by its SHA-1; rejects with a message containing `NOSCRIPT` when not
   * loaded. With `replicated: true`, an adapter that waits for replicas (`tcpScripting`'s
   * `replicas`) answers only once they have the script's writes, and rejects when they do not.
   */
  evalsha(
    sha: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    options?: RedisRunOptions,
  ): Promise<unknown>;
  /** Runs a script from its source (and loads it), as `evalsha`. */
  eval(
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    options?: RedisRunOptions,
  ): Promise<unknown>;
  /**
   * Calls `onMessage` with each message published on the channel, over a connection of its own;
   * answers the function that unsubscribes. Adapters that cannot hold a subscription (HTTP) leave
   * it out, and the store's workers poll.
   */
  subscribe?(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * The value of one server setting (`CONFIG GET`), undefined when unknown; rejects when the
   * server disables `CONFIG` (managed Redis), and the durability check falls back to `INFO`.
   * Adapters without it (HTTP) leave the check to `INFO`.
   */
  config?(parameter: string): Promise<string | undefined>;
}

/** How one script runs. */
export interface RedisRunOptions {
  /**
   * The script acknowledges work (an enqueue): wait until the adapter's replicas have its writes
   * (`WAIT`), so that a fail-over does not lose it.
   */
  readonly replicated?: boolean;
  /**
   * What the script does, for the adapter's metrics: the store names its replicated writes
   * `enqueue`, `revive` and `cancel` (the attribute `operation` of `tcpScripting`'s
   * `kit.jobs.replica_wait.failed`). A small fixed set: each value is a series.
   */
  readonly operation?: string;
}

/**
 * A Lua script run by its SHA-1, falling back to its source when the server does not know it
 * (after a restart or `SCRIPT FLUSH`).
 */
export class RedisScript {
  readonly #source: string;
  #sha: Promise<string> | undefined;

  /** A script from its source. */
  constructor(source: string) {
    this.#source = source;
  }

  /** Runs the script (its keys decide, on a cluster, the node it runs on). */
  async run(
    redis: RedisScripting,
    keys: readonly string[],
    args: readonly (string | number)[],
    options: RedisRunOptions = {},
  ): Promise<unknown> {
    const sha = await (this.#sha ??= sha1(this.#source));
    try {
      return await redis.evalsha(sha, keys, args, options);
    } catch (error) {
      if (!/NOSCRIPT/i.test(error instanceof Error ? error.message : String(error))) throw error;
      return await redis.eval(this.#source, keys, args, options);
    }
  }
}

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
