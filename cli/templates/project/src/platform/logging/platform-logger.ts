import { consoleLogger, type Logger, summarisingLogger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";

/**
 * The processes' logger: one line per problem on the console (stdout, warnings and errors on
 * stderr), as text or JSON (`LOG_FORMAT`), from `LOG_LEVEL` up; repeats of a problem within 10 s
 * are counted and written as one line (see docs/operations/logs.md).
 */
export function platformLogger(config: Pick<PlatformConfig, "logFormat" | "logLevel">): Logger {
  return summarisingLogger(consoleLogger({ format: config.logFormat, level: config.logLevel }));
}

/**
 * The `onFailure` of the health endpoints: a readiness check that failed is a `warn` line
 * `NOT_READY` of component `health.<check>` (summarised while the dependency stays down).
 */
export function readinessFailureLine(logger: Logger): (name: string, error: unknown) => void {
  return (name, error) =>
    logger.log({
      level: "warn",
      component: `health.${name}`,
      code: "NOT_READY",
      message: `readiness: ${name} is down`,
      error,
    });
}
