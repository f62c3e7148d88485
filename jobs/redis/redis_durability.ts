import type { RedisScripting } from "./redis_scripting.ts";
import { isUnreachable } from "./redis_unavailable.ts";

/**
 * What a store does when Redis is not configured to keep acknowledged jobs: `"refuse"` (throw
 * on the first operation, naming the setting and the value found), `"warn"` (log once and go
 * on), `"off"` (do not look).
 */
export type DurabilityRequirement = "refuse" | "warn" | "off";

/** One setting that does not keep jobs, with the value found and the value needed. */
export interface DurabilityFinding {
  /** The setting (`appendonly`, `appendfsync`, `maxmemory-policy`). */
  readonly setting: string;
  /** The value the server has. */
  readonly found: string;
  /** The value(s) kit needs. */
  readonly needed: string;
  /**
   * True when the server would not tell (neither `CONFIG GET` nor `INFO` allowed): the store
   * warns, never refuses, on such a finding alone (BullMQ's refusal of ElastiCache, where
   * `CONFIG` is disabled, broke every user of it).
   */
  readonly unreadable?: boolean;
}

/** Refuses a Redis that would lose acknowledged jobs; names every setting found wrong. */
export class RedisNotDurableError extends Error {
  /** The machine-readable code. */
  readonly code = "REDIS_NOT_DURABLE";
  /** The settings found wrong. */
  readonly findings: readonly DurabilityFinding[];

  /** Builds the refusal from the findings. */
  constructor(findings: readonly DurabilityFinding[]) {
    super(describeFindings(findings));
    this.name = "RedisNotDurableError";
    this.findings = findings;
  }
}

/** One line naming each setting, the value found and the value needed. */
export function describeFindings(findings: readonly DurabilityFinding[]): string {
  return "Redis would lose acknowledged jobs: " +
    findings.map((f) => `${f.setting} is '${f.found}' (needs ${f.needed})`).join(", ") +
    " — set them (redis.conf or CONFIG SET), or pass requireDurability: 'warn' | 'off' to the" +
    " store to accept the loss out loud";
}

const infoScript = "return redis.call('INFO', ARGV[1])";

/**
 * Reads the settings a durable job store needs: the append-only file on (`appendonly yes`),
 * written to disk at least every second (`appendfsync everysec` or `always`), and no eviction
 * (`maxmemory-policy noeviction`: any other policy lets Redis delete job keys when memory is
 * full). Uses `CONFIG GET` when the adapter offers it and the server allows it; else
 * `INFO persistence` and `INFO memory` (managed Redis often disables `CONFIG`), which show the
 * append-only file and the eviction policy but not `appendfsync` (then not checked). Answers the
 * settings found wrong, none when durable.
 */
export async function checkRedisDurability(
  redis: RedisScripting,
): Promise<readonly DurabilityFinding[]> {
  const settings = await readSettings(redis);
  if (settings.unreadable === "yes") {
    return ["appendonly", "maxmemory-policy"].map((setting) => ({
      setting,
      found: "unknown (CONFIG and INFO refused)",
      needed: setting === "appendonly" ? "'yes'" : "'noeviction'",
      unreadable: true,
    }));
  }
  const findings: DurabilityFinding[] = [];
  if (settings.appendonly !== "yes") {
    findings.push({ setting: "appendonly", found: settings.appendonly ?? "?", needed: "'yes'" });
  }
  if (
    settings.appendfsync !== undefined && settings.appendfsync !== "everysec" &&
    settings.appendfsync !== "always"
  ) {
    findings.push({
      setting: "appendfsync",
      found: settings.appendfsync,
      needed: "'everysec' or 'always'",
    });
  }
  if (settings["maxmemory-policy"] !== "noeviction") {
    findings.push({
      setting: "maxmemory-policy",
      found: settings["maxmemory-policy"] ?? "?",
      needed: "'noeviction'",
    });
  }
  return findings;
}

async function readSettings(redis: RedisScripting): Promise<Record<string, string | undefined>> {
  if (redis.config !== undefined) {
    try {
      return {
        appendonly: await redis.config("appendonly"),
        appendfsync: await redis.config("appendfsync"),
        "maxmemory-policy": await redis.config("maxmemory-policy"),
      };
    } catch (error) {
      if (!/unknown command|disabled|renamed|NOPERM|not allowed/i.test(String(error))) throw error;
    }
  }
  let persistence: Record<string, string>, memory: Record<string, string>;
  try {
    persistence = parseInfo(String(await redis.eval(infoScript, [], ["persistence"])));
    memory = parseInfo(String(await redis.eval(infoScript, [], ["memory"])));
  } catch (error) {
    if (isUnreachable(error)) throw error;
    return { unreadable: "yes" };
  }
  return {
    appendonly: persistence.aof_enabled === undefined
      ? undefined
      : persistence.aof_enabled === "1"
      ? "yes"
      : "no",
    "maxmemory-policy": memory.maxmemory_policy,
  };
}

function parseInfo(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0 && !line.startsWith("#")) fields[line.slice(0, at)] = line.slice(at + 1).trim();
  }
  return fields;
}
