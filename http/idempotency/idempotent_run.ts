import {
  type Clock,
  ConceptError,
  type ExecutionContext,
  type IdempotencyStore,
  runInScope,
  type TransactionManager,
} from "@kit/kernel";
import { defaultTenant, toMilliseconds } from "@kit/kernel/internal";
import type { IdempotencyOptions } from "../declaration/controller.ts";
import type { RouteResult } from "../pipeline/compiled_route.ts";

type Run = (
  validated: Record<string, unknown>,
  request: Request,
) => RouteResult | Promise<RouteResult>;

/** What an idempotent route needs beside its handler. */
export interface IdempotencyContext {
  readonly store: IdempotencyStore;
  readonly transactions: TransactionManager;
  readonly clock: Clock;
}

// An sf-string of the draft: printable ASCII, here 1 to 255 characters.
const keyPattern = /^[\x20-\x7e]{1,255}$/;

/**
 * Wraps a route's handler so that it honours `Idempotency-Key`: the claim, the use case and the
 * kept answer share one unit of work (the bus joins it), so an answer is kept exactly when the
 * use case committed.
 */
export function idempotentRun(
  route: string,
  options: IdempotencyOptions,
  context: IdempotencyContext,
  run: Run,
): Run {
  const keepForMs = toMilliseconds(options.keepFor ?? "24h");
  const { store, transactions, clock } = context;
  return async function runIdempotent(validated, request) {
    const key = request.headers.get("idempotency-key");
    if (key === null) {
      if (options.required) {
        throw ConceptError.refusal(
          "IDEMPOTENCY_KEY_REQUIRED",
          `${route} needs an Idempotency-Key header`,
        );
      }
      return await run(validated, request);
    }
    if (!keyPattern.test(key)) {
      throw ConceptError.refusal(
        "IDEMPOTENCY_KEY_INVALID",
        "The Idempotency-Key header must be 1 to 255 printable ASCII characters",
      );
    }
    const execution = validated.context as ExecutionContext;
    const tenant = execution.tenantId ?? defaultTenant(execution.actor) ?? "";
    const scope = `${route}\n${tenant}\n${execution.actor.id}`;
    const fingerprint = await digest(validated);
    const now = clock.now();
    let claimed = false;
    try {
      return await transactions.run((unit) =>
        runInScope({ execution, unitOfWork: unit }, async () => {
          const claim = await store.claim({
            scope,
            key,
            fingerprint,
            unit,
            now,
            expiresBefore: new Date(now.getTime() - keepForMs),
          });
          if (claim.outcome === "in-flight") {
            throw ConceptError.conflict(
              "IDEMPOTENCY_KEY_IN_USE",
              "A request with this Idempotency-Key is still being answered: retry later",
            );
          }
          if (claim.outcome === "mismatch") {
            throw ConceptError.refusal(
              "IDEMPOTENCY_KEY_REUSED",
              "This Idempotency-Key was used for another request",
            );
          }
          if (claim.outcome === "replay") {
            const { answer } = claim;
            return {
              status: answer.status,
              ...(answer.body === undefined ? {} : { body: answer.body }),
              headers: { ...answer.headers, "idempotent-replayed": "true" },
            };
          }
          claimed = true;
          const result = await run(validated, request);
          if (!isKeepable(result.body)) {
            throw new TypeError(`${route} is idempotent: it must answer JSON or text, not bytes`);
          }
          await store.keep({
            scope,
            key,
            fingerprint,
            unit,
            now,
            answer: {
              status: result.status,
              ...(result.body === undefined ? {} : { body: result.body }),
              ...(result.headers === undefined ? {} : { headers: result.headers }),
            },
          });
          return result;
        })
      );
    } finally {
      if (claimed) store.release({ scope, key });
    }
  };
}

function isKeepable(body: unknown): boolean {
  return !(body instanceof Uint8Array || body instanceof ArrayBuffer ||
    body instanceof ReadableStream);
}

async function digest(validated: Record<string, unknown>): Promise<string> {
  const text = JSON.stringify([
    validated.params ?? null,
    validated.query ?? null,
    validated.body ?? null,
  ]);
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
