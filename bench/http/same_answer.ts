/**
 * The harness's check that every schema row answers the same: before a row is loaded, its server
 * is sent the schema route's request once with a practitioner's token (202 and `{"id":"cal-1:3"}`
 * expected) and once without a token (401 expected), so that no row's req/s is of a shorter
 * answer or of a refusal.
 */
import { body } from "./shared.ts";

/** The body every schema row answers the benchmark's request with (`cal-1`, three appointments). */
export const schemaAnswer = { id: "cal-1:3" } as const;

async function send(url: string, token?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-request-source": "bench",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Checks `row`'s server at `url` (the schema route's URL): 202 with {@link schemaAnswer} to
 * `token`, 401 without a token. Throws an error naming the row and what it answered.
 */
export async function checkSchemaAnswers(row: string, url: string, token: string): Promise<void> {
  const accepted = await send(url, token);
  let parsed: unknown;
  try {
    parsed = JSON.parse(accepted.text);
  } catch {
    parsed = undefined;
  }
  const same = accepted.status === 202 && typeof parsed === "object" && parsed !== null &&
    Object.keys(parsed).length === 1 && (parsed as { id?: unknown }).id === schemaAnswer.id;
  if (!same) {
    throw new Error(
      `${row} answered ${accepted.status} ${accepted.text.slice(0, 200)} to the schema request, ` +
        `not 202 ${JSON.stringify(schemaAnswer)}`,
    );
  }
  const anonymous = await send(url);
  if (anonymous.status !== 401) {
    throw new Error(`${row} answered ${anonymous.status} without a token, not 401`);
  }
}
