import { ConceptError } from "@kit/kernel";

/**
 * Refuses work while Redis cannot be reached: code `SERVICE_UNAVAILABLE` (HTTP 503, with
 * `Retry-After`, once the kernel maps the code). Nothing was acknowledged: the caller may retry
 * later. A refusal (`ConceptError`, kind `conflict`), so the HTTP edge answers it by its code —
 * never a hang and never 500; the kernel's `ServiceUnavailableError` carries the same code, and
 * this error is to extend it once it is exported.
 */
export class RedisUnavailableError extends ConceptError {
  /** The HTTP status the edge is to answer. */
  readonly status = 503;
  /** Seconds after which a retry may succeed (`Retry-After`). */
  readonly retryAfterSeconds: number;

  /** Builds the refusal, naming what failed. */
  constructor(message: string, options?: ErrorOptions & { retryAfterSeconds?: number }) {
    super("conflict", "SERVICE_UNAVAILABLE", message, {
      retryAfterSeconds: options?.retryAfterSeconds ?? 5,
    }, options);
    this.name = "RedisUnavailableError";
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 5;
  }
}

const unreachable =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|enableOfflineQueue|Command timed out|MaxRetriesPerRequest|LOADING|connection (refused|reset|closed)|fetch failed/i;

/** Whether the error says Redis could not be reached (not that a script refused). */
export function isUnreachable(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return unreachable.test(message);
}

/**
 * Runs the operation within `timeoutMs`: a time-out, or an error saying Redis is unreachable,
 * becomes a `RedisUnavailableError` naming the operation. Other errors pass through.
 */
export async function withinDeadline<T>(
  operation: string,
  timeoutMs: number,
  run: () => Promise<T>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new RedisUnavailableError(
            `Redis did not answer ${operation} within ${timeoutMs} ms: nothing was acknowledged, retry later`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([run(), deadline]);
  } catch (error) {
    if (error instanceof RedisUnavailableError || !isUnreachable(error)) throw error;
    throw new RedisUnavailableError(
      `Redis is unreachable (${operation}): ${
        error instanceof Error ? error.message : String(error)
      }; nothing was acknowledged, retry later`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}
