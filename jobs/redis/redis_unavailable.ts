import { ServiceUnavailableError } from "@kit/kernel";

/**
 * Refuses work while Redis cannot be reached, or cannot be trusted with it (not durable, or it
 * lost its data): a `ServiceUnavailableError` of the service `job store` (code
 * `SERVICE_UNAVAILABLE`, HTTP 503 with `Retry-After`). Nothing was acknowledged: the caller may
 * retry later.
 */
export class RedisUnavailableError extends ServiceUnavailableError {
  /** The HTTP status the edge is to answer. */
  readonly status = 503;

  /** Builds the refusal, saying what failed. */
  constructor(message: string, options?: ErrorOptions & { retryAfterSeconds?: number }) {
    super("job store", {
      reason: message,
      retryAfterSeconds: options?.retryAfterSeconds ?? 5,
      ...(options?.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = "RedisUnavailableError";
  }
}

const unreachable =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|enableOfflineQueue|Command timed out|MaxRetriesPerRequest|LOADING|CLUSTERDOWN|TRYAGAIN|Failed to refresh slots cache|None of startup nodes is available|connection (refused|reset|closed)|fetch failed/i;

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
      `Redis is unreachable (${operation}): nothing was acknowledged, retry later`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}
