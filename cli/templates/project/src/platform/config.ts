import type { LogLevel } from "@kit/kernel";
import type { PostgresClientSettings } from "@kit/kernel/postgres";
import project from "../../kit.config.json" with { type: "json" };
import { databaseSettingsFromEnv } from "./database/database.ts";

/** A runtime's environment: `Deno.env.toObject()`, `process.env`, a Worker's bindings. */
export type Environment = Readonly<Record<string, unknown>>;

/** What Redis's settings must guarantee for the job store (see `@kit/jobs/redis`). */
export type RedisDurability = "refuse" | "warn" | "off";

/** The platform's settings, the same on Deno, Node and Cloudflare Workers. */
export interface PlatformConfig {
  /** `DATABASE_URL`: every context on PostgreSQL; unset, in memory. */
  readonly databaseUrl: string | undefined;
  /**
   * `DATABASE_POOL_SIZE` and `DATABASE_{CONNECT,ACQUIRE,STATEMENT}_TIMEOUT`: the client's pool
   * and time-outs (unset: kit's, see `databaseSettingsFromEnv`).
   */
  readonly database: PostgresClientSettings;
  /** `JWT_SECRET`: the secret of the HS256 bearer tokens. */
  readonly jwtSecret: string | undefined;
  /** `JWT_ISSUER`: the issuer (`iss`) of the tokens accepted (default `<project>-identity`). */
  readonly tokenIssuer: string;
  /** `JWT_AUDIENCE`: the audience (`aud`) of the tokens accepted (default `<project>-api`). */
  readonly tokenAudience: string;
  /** `REDIS_URL`: the Redis of the job store (queue redis, on Deno and Node). */
  readonly redisUrl: string | undefined;
  /**
   * `REDIS_DURABILITY`: what a Redis that would lose jobs (no persistence, an evicting memory
   * policy) does: `refuse` (default: readiness red, enqueues straight to it answer 503, jobs wait
   * in the outbox), `warn` (logged once) or `off` (not looked at). A loss of its data is
   * detected and repaired under every setting.
   */
  readonly redisDurability: RedisDurability;
  /**
   * `REDIS_PREFIX`: the prefix of the job store's keys (default `kit:jobs:`), the same for the
   * processes that enqueue (a Worker through Upstash among them) and those that run the jobs.
   */
  readonly redisPrefix: string | undefined;
  /** `UPSTASH_REDIS_REST_URL` and `UPSTASH_REDIS_REST_TOKEN`: the job store on Workers. */
  readonly upstash: { readonly url: string; readonly token: string } | undefined;
  /** `HOST`: the interface served (default 127.0.0.1; 0.0.0.0: every interface). */
  readonly host: string;
  /** `PORT`: the port served (default 8000). */
  readonly port: number;
  /** `KIT_MIGRATIONS_REAPPLY=1`: development databases only (see `migrations.ts`). */
  readonly migrationsReapply: boolean;
  /** `LOG_FORMAT`: `text` (default, one readable line) or `json` (one object a line, for shippers). */
  readonly logFormat: "text" | "json";
  /** `LOG_LEVEL`: the lowest level written, `debug`, `info` (default), `warn` or `error`. */
  readonly logLevel: LogLevel;
  /**
   * `OUTBOX_LEASE`: how long the outbox relay of a process keeps the deliveries it claimed from
   * the other processes' relays, in ms (default `30s`; a duration above `1s`, a relay's batch
   * window). A process that dies leaves its claimed deliveries undelivered until their lease
   * ends; a lease shorter than a batch takes lets another relay deliver them again.
   */
  readonly outboxLeaseMs: number;
}

/**
 * Reads the platform's settings from `env`; an empty value is unset. Throws on a value it cannot
 * use, naming it.
 */
export function readConfig(env: Environment): PlatformConfig {
  const get = (name: string): string | undefined => {
    const value = env[name];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const durability = get("REDIS_DURABILITY") ?? "refuse";
  if (durability !== "refuse" && durability !== "warn" && durability !== "off") {
    throw new Error(`REDIS_DURABILITY must be refuse, warn or off, got '${durability}'`);
  }
  const port = Number(get("PORT") ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a port number, got '${get("PORT")}'`);
  }
  const upstashUrl = get("UPSTASH_REDIS_REST_URL");
  const upstashToken = get("UPSTASH_REDIS_REST_TOKEN");
  if ((upstashUrl === undefined) !== (upstashToken === undefined)) {
    throw new Error("UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together: set both");
  }
  const logFormat = get("LOG_FORMAT") ?? "text";
  if (logFormat !== "text" && logFormat !== "json") {
    throw new Error(`LOG_FORMAT must be text or json, got '${logFormat}'`);
  }
  const logLevel = get("LOG_LEVEL") ?? "info";
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be debug, info, warn or error, got '${logLevel}'`);
  }
  return {
    databaseUrl: get("DATABASE_URL"),
    database: databaseSettingsFromEnv(env),
    jwtSecret: get("JWT_SECRET"),
    tokenIssuer: get("JWT_ISSUER") ?? `${project.name}-identity`,
    tokenAudience: get("JWT_AUDIENCE") ?? `${project.name}-api`,
    redisUrl: get("REDIS_URL"),
    redisDurability: durability,
    redisPrefix: get("REDIS_PREFIX"),
    upstash: upstashUrl && upstashToken ? { url: upstashUrl, token: upstashToken } : undefined,
    host: get("HOST") ?? "127.0.0.1",
    port,
    migrationsReapply: get("KIT_MIGRATIONS_REAPPLY") === "1",
    logFormat,
    logLevel: logLevel as LogLevel,
    outboxLeaseMs: outboxLease(get("OUTBOX_LEASE") ?? "30s"),
  };
}

const durationUnits: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * `OUTBOX_LEASE` in milliseconds: a duration with a unit (`500ms`, `10s`, `2m`, `1h`) above the
 * relay's batch window (1 s: the relay refuses a lease that a batch could outlive).
 */
function outboxLease(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim());
  const ms = match === null ? Number.NaN : Math.round(Number(match[1]) * durationUnits[match[2]!]!);
  if (!(ms > 1_000)) {
    throw new Error(
      `OUTBOX_LEASE must be a duration above 1s (the relay's batch window), such as 10s or 2m, got '${value}'`,
    );
  }
  return ms;
}

const developmentSecret = "$secret$";

/**
 * The secret the API verifies bearer tokens with: `JWT_SECRET`; unset, the development secret
 * (`kit token` signs with it) when the data is in memory, and with a database a random one (no
 * token is accepted: the API fails closed).
 */
export function tokenSecret(config: PlatformConfig): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (config.databaseUrl) return crypto.getRandomValues(new Uint8Array(32));
  return new TextEncoder().encode(developmentSecret);
}
