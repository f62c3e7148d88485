import { BodyDeadline, timedOut } from "../deadlines/body_deadline.ts";
import { type Problem, problem } from "./problem.ts";

/** A body read and parsed, or the problem that refused it. */
export type BodyResult = {
  readonly ok: true;
  readonly value: unknown;
  /**
   * Whether the JSON text holds a `\u` escape: only then can the parsed value hold a NUL
   * character or a lone surrogate (JSON refuses a raw NUL, and a UTF-8 text has no surrogate).
   */
  readonly escaped: boolean;
} | {
  readonly ok: false;
  readonly problem: Problem;
};

const nothing: BodyResult = Object.freeze({ ok: true, value: undefined, escaped: false });

/**
 * Reads a JSON body up to `limit` bytes within `timeoutMs` milliseconds of starting (up to a tenth
 * more: the deadline's timer is shared, see `BodyDeadline`): 415 for
 * another media type, 413 past the limit (checked on `Content-Length` and while reading), 408
 * when the body is not all received in time (the read is then cancelled), 400 for malformed
 * JSON. Synchronous when the request says it has no body (or a refused one); else a promise
 * (one chain on the read, no async function: a request allocates as little as it can here).
 */
export function readJsonBody(
  request: Request,
  limit: number,
  instance: string,
  timeoutMs: number,
): BodyResult | Promise<BodyResult> {
  return readJsonBodyInto(request, limit, instance, timeoutMs, itself, undefined);
}

/**
 * As {@linkcode readJsonBody}, the result given to `into` with `context` (on the read's own
 * promise, not a second one chained to it: the pipeline's body step validates it there), and
 * a read that fails to `fail` when given (else the promise rejects).
 */
export function readJsonBodyInto<C, T>(
  request: Request,
  limit: number,
  instance: string,
  timeoutMs: number,
  into: (context: C, body: BodyResult) => T | Promise<T>,
  context: C,
  fail?: (context: C, error: unknown) => T,
): T | Promise<T> {
  // `request.body` is read only when needed: on Node (@hono/node-server) it builds a whole
  // undici Request and a web stream over the socket, where `arrayBuffer()` reads the socket.
  if (request.method === "GET" || request.method === "HEAD") return into(context, nothing);
  const headers = request.headers;
  const type = headers.get("content-type");
  const length = headers.get("content-length");
  if (length === "0" || (length === null && type === null && !headers.has("transfer-encoding"))) {
    return into(context, nothing);
  }
  if (type === null || !isJson(type)) {
    if (request.body === null) return into(context, nothing);
    return into(context, {
      ok: false,
      problem: problem(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        `The body must be application/json, got ${type === null ? "no content type" : `'${type}'`}`,
        instance,
      ),
    });
  }
  const declared = Number(length ?? "NaN");
  if (declared > limit) return into(context, { ok: false, problem: tooLarge(limit, instance) });
  if (!(declared >= 0)) {
    return readChunked(request, limit, instance, timeoutMs).then(
      (read) => into(context, read),
      fail && ((error) => fail(context, error)),
    );
  }
  // A declared length the server holds the body to: read it at once.
  const deadline = new BodyDeadline(timeoutMs);
  let reading: Promise<ArrayBuffer>;
  try {
    reading = request.arrayBuffer();
  } catch (error) {
    return fail === undefined ? Promise.reject(error) : fail(context, error);
  }
  return deadline.race(reading).then((read) => {
    deadline.clear();
    if (read === timedOut) {
      reading.catch(() => {});
      // The runtime's own read holds the stream where it can (Deno): then only the answer
      // goes, and the runtime drops the read with the connection.
      try {
        request.body?.cancel(deadline.reason()).catch(() => {});
      } catch {
        // A runtime whose request cannot give its stream now: the answer goes all the same.
      }
      return into(context, { ok: false, problem: timeout(timeoutMs, instance) });
    }
    // Decoded as it is: no view of it made.
    if (read.byteLength > limit) {
      return into(context, { ok: false, problem: tooLarge(limit, instance) });
    }
    return into(context, parse(read, instance));
  }, (error) => {
    deadline.clear();
    if (fail === undefined) throw error;
    return fail(context, error);
  });
}

function itself(_: undefined, body: BodyResult): BodyResult {
  return body;
}

/** A body of unknown length (chunked): read up to the limit, within the deadline. */
async function readChunked(
  request: Request,
  limit: number,
  instance: string,
  timeoutMs: number,
): Promise<BodyResult> {
  if (request.body === null) return nothing;
  const deadline = new BodyDeadline(timeoutMs);
  let bytes: Uint8Array;
  try {
    const read = await readLimited(request.body, limit, deadline);
    if (read === timedOut) return { ok: false, problem: timeout(timeoutMs, instance) };
    if (read === undefined) return { ok: false, problem: tooLarge(limit, instance) };
    bytes = read;
  } finally {
    deadline.clear();
  }
  return parse(bytes, instance);
}

/** The JSON of the body's bytes, or the problem of invalid UTF-8 or malformed JSON. */
function parse(bytes: Uint8Array | ArrayBuffer, instance: string): BodyResult {
  if (bytes.byteLength === 0) return nothing;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      ok: false,
      problem: problem(400, "MALFORMED_JSON", "The body is not valid UTF-8", instance),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text), escaped: text.includes("\\u") };
  } catch (error) {
    return {
      ok: false,
      problem: problem(
        400,
        "MALFORMED_JSON",
        `The body is not valid JSON: ${(error as Error).message}`,
        instance,
      ),
    };
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a stream of unknown length, stopping past `limit` bytes (then `undefined`) or at the
 * deadline (then `timedOut`); either way the stream is cancelled.
 */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
  deadline: BodyDeadline,
): Promise<Uint8Array | undefined | typeof timedOut> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await deadline.race(reader.read());
    if (read === timedOut) {
      reader.cancel(deadline.reason()).catch(() => {});
      return timedOut;
    }
    const { done, value } = read;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concat(chunks, size);
}

function isJson(type: string): boolean {
  // The usual type, compared as it is: no split, trimmed or lower-cased copy of it.
  if (type === "application/json") return true;
  const media = type.split(";", 1)[0]!.trim().toLowerCase();
  return media === "application/json" ||
    (media.startsWith("application/") && media.endsWith("+json"));
}

function tooLarge(limit: number, instance: string): Problem {
  return problem(413, "CONTENT_TOO_LARGE", `The body is larger than ${limit} bytes`, instance);
}

function timeout(ms: number, instance: string): Problem {
  return problem(
    408,
    "REQUEST_TIMEOUT",
    `The body was not received within ${ms} ms`,
    instance,
  );
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
