import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ExecutionContext } from "../actor/execution_context.ts";
import { uuidv7 } from "../ids/id.ts";

/** A fact another context reacts to, as written to the outbox and delivered to handlers. */
export interface IntegrationEvent<Payload = unknown> {
  /** The id of this occurrence (UUID v7). */
  readonly id: string;
  /** The declared type (`scheduling.appointment.booked`). */
  readonly type: string;
  /** The declared version of the payload. */
  readonly version: number;
  /** When it happened (ISO 8601). */
  readonly occurredAt: string;
  /** The payload, as validated by the declaration's schema. */
  readonly payload: Payload;
  /** The correlation of the work that published it. */
  readonly correlationId?: string;
  /** What caused the work that published it. */
  readonly causationId?: string;
  /** The tenant of that work. */
  readonly tenantId?: string;
  /** The id of the actor of that work. */
  readonly actorId?: string;
}

/** The declaration of an integration event: its type, version and payload schema. */
export interface IntegrationEventDefinition<Payload = unknown> {
  /** The type, `<context>.<element>.<fact>`. */
  readonly type: string;
  /** The version of the payload, from 1. */
  readonly version: number;
  /** The payload's schema (any Standard Schema: zod, valibot, arktype). */
  readonly payload: StandardSchemaV1<unknown, Payload>;
  /** Validates the payload and builds an occurrence, stamped from the execution context. */
  create(
    payload: Payload,
    options?: { context?: ExecutionContext; occurredAt?: Date; id?: string },
  ): Promise<IntegrationEvent<Payload>>;
}

/** The payload type of an event declaration. */
export type EventPayloadOf<D> = D extends IntegrationEventDefinition<infer P> ? P : never;

const typePattern = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*){2,}$/;

/**
 * Declares an integration event, published in the upstream's `published-language/`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineIntegrationEvent } from "@kit/kernel";
 * export const AppointmentBooked = defineIntegrationEvent({
 *   type: "scheduling.appointment.booked",
 *   version: 1,
 *   payload: z.object({ appointmentId: z.string(), startsAt: z.iso.datetime() }),
 * });
 * ```
 */
export function defineIntegrationEvent<Payload>(declaration: {
  type: string;
  version: number;
  payload: StandardSchemaV1<unknown, Payload>;
}): IntegrationEventDefinition<Payload> {
  const { type, version, payload } = declaration;
  if (typeof type !== "string" || !typePattern.test(type)) {
    throw new TypeError(
      `Invalid event type ${JSON.stringify(type)}: use '<context>.<element>.<fact>' in kebab-case`,
    );
  }
  if (!Number.isInteger(version) || version < 1) {
    throw new TypeError(
      `Event '${type}' needs a version that is an integer from 1, got ${version}`,
    );
  }
  if (typeof payload?.["~standard"]?.validate !== "function") {
    throw new TypeError(`Event '${type}' needs a payload schema that implements Standard Schema`);
  }
  return Object.freeze({
    type,
    version,
    payload,
    async create(
      value: Payload,
      options: { context?: ExecutionContext; occurredAt?: Date; id?: string } = {},
    ): Promise<IntegrationEvent<Payload>> {
      const result = await payload["~standard"].validate(value);
      if (result.issues !== undefined) {
        const issues = result.issues.map((issue) => `${pathOf(issue)}: ${issue.message}`).join(
          "; ",
        );
        throw new TypeError(`The payload of event '${type}' v${version} is invalid: ${issues}`);
      }
      const context = options.context;
      const occurredAt = options.occurredAt ?? new Date();
      return Object.freeze({
        id: options.id ?? uuidv7(occurredAt.getTime()),
        type,
        version,
        occurredAt: occurredAt.toISOString(),
        payload: result.value,
        ...(context?.correlationId ? { correlationId: context.correlationId } : {}),
        ...(context?.causationId ? { causationId: context.causationId } : {}),
        ...(context?.tenantId ? { tenantId: context.tenantId } : {}),
        ...(context ? { actorId: context.actor.id } : {}),
      });
    },
  });
}

function pathOf(issue: StandardSchemaV1.Issue): string {
  if (!issue.path || issue.path.length === 0) return "(payload)";
  return issue.path
    .map((segment) => typeof segment === "object" ? String(segment.key) : String(segment))
    .join(".");
}
