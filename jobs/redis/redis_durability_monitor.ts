import { consoleLogger, type Logger } from "@kit/kernel";
import {
  checkRedisDurability,
  describeFindings,
  type DurabilityFinding,
  type DurabilityRequirement,
} from "./redis_durability.ts";
import { RedisScript, type RedisScripting } from "./redis_scripting.ts";
import { RedisUnavailableError, withinDeadline } from "./redis_unavailable.ts";

/**
 * What the monitor last saw of Redis: `"unknown"` (not looked yet), `"safe"` (reachable, keeps
 * what it acknowledges), `"not_durable"` (persistence off or weaker than the policy),
 * `"data_lost"` (the marker vanished or was replaced: Redis lost its data), `"unavailable"`
 * (no answer within the deadline).
 */
export type RedisDurabilityState =
  | "unknown"
  | "safe"
  | "not_durable"
  | "data_lost"
  | "unavailable";

/**
 * What happened to Redis's data since the last look: `"lost"` (the marker is gone: everything
 * Redis held may be gone), `"restarted"` (another server run, its data loaded from disk: the
 * writes of its last second may be gone under `appendfsync everysec`), `"new"` (no marker at the
 * first look: a new server, or one that lost its data while no process watched).
 */
export type RedisLoss = "lost" | "restarted" | "new";

/** Options of a {@linkcode RedisDurabilityMonitor}. */
export interface RedisDurabilityMonitorOptions {
  /**
   * The prefix of the job store's keys (default `kit:jobs:`, on a cluster `{kit:jobs}:`): the
   * marker is `<prefix>durability`.
   */
  readonly prefix?: string;
  /**
   * `"refuse"` (default): persistence off makes the state `not_durable` (readiness red, enqueues
   * refused with 503); `"warn"`: logged once, the state stays `safe`; `"off"`: not looked at.
   * Data loss is detected (and reported to `onLoss`) under every policy.
   */
  readonly requirement?: DurabilityRequirement;
  /** Milliseconds between looks (default 1,000). */
  readonly intervalMs?: number;
  /** Milliseconds a look may take before Redis counts as unavailable (default 2,000). */
  readonly timeoutMs?: number;
  /** Where the state changes are logged (component `redis`; default `consoleLogger()`). */
  readonly logger?: Logger;
  /** `Retry-After` of the refusals while Redis is unsafe, in seconds (default 5). */
  readonly retryAfterSeconds?: number;
}

// The marker: kept as long as Redis keeps its data. Read (and written when missing) with the
// server's run id, so that a restart and a loss are told apart in one round trip.
const observeScript = new RedisScript(`
local key = ARGV[1] .. 'durability'
local value = redis.call('GET', key)
local created = 0
if not value then
  redis.call('SET', key, ARGV[2])
  value = ARGV[2]
  created = 1
end
local info = redis.call('INFO', 'server')
return {value, created, string.match(info, 'run_id:(%w+)') or ''}
`);

/**
 * Watches a Redis job store's durability at start and every `intervalMs`: its persistence
 * settings against the policy (`checkRedisDurability`), and its data, through a marker key
 * (`<prefix>durability`, a random value written when missing) and the server's run id. The
 * marker gone or replaced means Redis lost its data (a restart without persistence, a flush, a
 * fail-over to an empty replica); a new run id with the marker kept means a restart that loaded
 * its files. Each change of state is logged once through the logger (component `redis`, codes
 * `REDIS_NOT_DURABLE`, `REDIS_DATA_LOST`, `REDIS_UNAVAILABLE`, and `REDIS_DURABLE` when it is
 * safe again); `onLoss` listeners (an outbox relay that replays what it delivered) hear of every
 * loss and restart. `ready()` refuses with `RedisUnavailableError` (503 with `Retry-After`)
 * while the state is not `safe` (the job store's enqueues and the relay ask it); `probe()` looks
 * first (the readiness check).
 *
 * @example
 * ```ts ignore
 * import { Redis } from "ioredis";
 * import { failFastRedisOptions, RedisDurabilityMonitor, tcpScripting } from "@kit/jobs/redis";
 * const monitor = new RedisDurabilityMonitor(tcpScripting(new Redis(failFastRedisOptions())));
 * monitor.start();
 * const readiness = { jobs: () => monitor.probe() };
 * ```
 */
export class RedisDurabilityMonitor {
  readonly #redis: RedisScripting;
  readonly #prefix: string;
  readonly #requirement: DurabilityRequirement;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  readonly #retryAfterSeconds: number;
  readonly #listeners: ((loss: RedisLoss) => void)[] = [];
  #state: RedisDurabilityState = "unknown";
  #findings: readonly DurabilityFinding[] = [];
  #marker: string | undefined;
  #runId: string | undefined;
  #warned = false;
  #error: unknown;
  #looking: Promise<void> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** A monitor of the store on this connection (its keys under `options.prefix`). */
  constructor(redis: RedisScripting, options: RedisDurabilityMonitorOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? (redis.cluster === true ? "{kit:jobs}:" : "kit:jobs:");
    this.#requirement = options.requirement ?? "refuse";
    this.#intervalMs = options.intervalMs ?? 1_000;
    this.#timeoutMs = options.timeoutMs ?? 2_000;
    this.#logger = options.logger ?? consoleLogger();
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 5;
  }

  /** What the last look saw. */
  get state(): RedisDurabilityState {
    return this.#state;
  }

  /** Looks now, then every `intervalMs` until `stop()`. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.check(), this.#intervalMs);
    void this.check();
  }

  /** Stops looking; waits for a look under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#looking;
  }

  /** Calls `listener` with each loss or restart seen from now on. */
  onLoss(listener: (loss: RedisLoss) => void): void {
    this.#listeners.push(listener);
  }

  /** Looks once (joins a look under way); never rejects: the outcome is the new state. */
  check(): Promise<void> {
    this.#looking ??= this.#look().finally(() => this.#looking = undefined);
    return this.#looking;
  }

  /**
   * Resolves when Redis is safe, looking first when nothing was seen yet; rejects with
   * `RedisUnavailableError` (503, `Retry-After`) naming the state otherwise.
   */
  async ready(): Promise<void> {
    if (this.#state === "unknown") await this.check();
    if (this.#state === "safe") return;
    // Short, since the answer may reach clients: the log line says which settings.
    const reason = this.#state === "not_durable"
      ? "Redis is not durable"
      : this.#state === "data_lost"
      ? "Redis lost its data"
      : "Redis is unreachable";
    throw new RedisUnavailableError(reason, { retryAfterSeconds: this.#retryAfterSeconds });
  }

  /**
   * The readiness check: while the state is `safe`, looks now (joining a look under way), so that
   * a probe sees a failure at once, not up to `intervalMs` later; otherwise answers at once from
   * the state (a frozen Redis would hold each probe for the look's time-out), the next look of
   * `start()`'s interval telling the recovery. Then answers as `ready()` does.
   */
  async probe(): Promise<void> {
    if (this.#state === "safe") await this.check();
    await this.ready();
  }

  #describe(): string {
    switch (this.#state) {
      case "not_durable":
        return `Redis would lose acknowledged jobs: ${
          this.#findings.map((f) => `${f.setting} is '${f.found}' (needs ${f.needed})`).join(", ")
        }; no job is written to it until it keeps them (set them in redis.conf or with CONFIG SET; the requirement 'warn' or 'off' accepts the loss)`;
      case "data_lost":
        return "Redis lost its data (its durability marker vanished): the jobs relayed are being written again";
      default:
        return "Redis is unreachable: nothing was acknowledged, retry later";
    }
  }

  async #look(): Promise<void> {
    let next: RedisDurabilityState;
    try {
      next = await withinDeadline("the durability check", this.#timeoutMs, async () => {
        const lost = await this.#observe();
        const findings = this.#requirement === "off" ? [] : await checkRedisDurability(this.#redis);
        this.#findings = findings;
        const known = findings.some((finding) => finding.unreadable !== true);
        if (lost) return "data_lost";
        if (findings.length === 0) return "safe";
        if (this.#requirement === "refuse" && known) return "not_durable";
        if (!this.#warned) {
          this.#warned = true;
          this.#log("warn", "REDIS_NOT_DURABLE", describeFindings(findings));
        }
        return "safe";
      });
    } catch (error) {
      this.#error = error;
      next = "unavailable";
    }
    this.#enter(next);
  }

  /** Reads the marker and run id; reports a loss or restart; answers whether data was lost. */
  async #observe(): Promise<boolean> {
    const [value, created, runId] = await observeScript.run(this.#redis, [
      `${this.#prefix}durability`,
    ], [
      this.#prefix,
      crypto.randomUUID(),
    ]) as [string, number, string];
    const first = this.#marker === undefined;
    const lost = !first && value !== this.#marker;
    const restarted = !first && !lost && runId !== this.#runId;
    this.#marker = value;
    this.#runId = runId;
    const loss: RedisLoss | undefined = lost
      ? "lost"
      : restarted
      ? "restarted"
      : first && Number(created) === 1
      ? "new"
      : undefined;
    if (loss === "lost") {
      this.#log(
        "error",
        "REDIS_DATA_LOST",
        "Redis lost its data (its durability marker vanished): the jobs relayed recently are written again",
      );
    }
    // The state says the loss before any listener hears of it: a relay woken by a listener asks
    // `ready()` at once, and must not write while the loss is being reported.
    if (loss === "lost") this.#enter("data_lost");
    if (loss !== undefined) { for (const listener of this.#listeners) listener(loss); }
    return lost;
  }

  #enter(next: RedisDurabilityState): void {
    const previous = this.#state;
    this.#state = next;
    if (next === previous) return;
    if (next === "not_durable") this.#log("error", "REDIS_NOT_DURABLE", this.#describe());
    if (next === "unavailable") {
      // The client's error (refused, timed out) says more than the refusal wrapping it.
      const error = this.#error instanceof Error && this.#error.cause !== undefined
        ? this.#error.cause
        : this.#error;
      this.#log("warn", "REDIS_UNAVAILABLE", this.#describe(), error);
    }
    if (next === "safe" && previous !== "unknown") {
      this.#log("info", "REDIS_DURABLE", `Redis is safe again (it was ${previous})`);
    }
  }

  #log(
    level: "info" | "warn" | "error",
    code: string,
    message: string,
    error?: unknown,
  ): void {
    this.#logger.log({
      level,
      component: "redis",
      code,
      message,
      details: { prefix: this.#prefix },
      ...(error === undefined ? {} : { error }),
    });
  }
}
