import { type Problem, problem } from "./problem.ts";

/** A body read and parsed, or the problem that refused it. */
export type BodyResult = { readonly ok: true; readonly value: unknown } | {
  readonly ok: false;
  readonly problem: Problem;
};

/**
 * Reads a JSON body up to `limit` bytes: 415 for another media type, 413 past the limit (checked
 * on `Content-Length` and while reading), 400 for malformed JSON.
 */
export async function readJsonBody(
  request: Request,
  limit: number,
  instance: string,
): Promise<BodyResult> {
  // `request.body` is read only when needed: on Node (@hono/node-server) it builds a whole
  // undici Request and a web stream over the socket, where `arrayBuffer()` reads the socket.
  if (request.method === "GET" || request.method === "HEAD") return { ok: true, value: undefined };
  const headers = request.headers;
  const type = headers.get("content-type");
  const length = headers.get("content-length");
  if (length === "0" || (length === null && type === null && !headers.has("transfer-encoding"))) {
    return { ok: true, value: undefined };
  }
  if (type === null || !isJson(type)) {
    if (request.body === null) return { ok: true, value: undefined };
    return {
      ok: false,
      problem: problem(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        `The body must be application/json, got ${type === null ? "no content type" : `'${type}'`}`,
        instance,
      ),
    };
  }
  const declared = Number(length ?? "NaN");
  if (declared > limit) return { ok: false, problem: tooLarge(limit, instance) };
  let bytes: Uint8Array;
  if (declared >= 0) {
    // A declared length the server holds the body to: read it at once.
    bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > limit) return { ok: false, problem: tooLarge(limit, instance) };
  } else {
    if (request.body === null) return { ok: true, value: undefined };
    const read = await readLimited(request.body, limit);
    if (read === undefined) return { ok: false, problem: tooLarge(limit, instance) };
    bytes = read;
  }
  if (bytes.byteLength === 0) return { ok: true, value: undefined };
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
    return { ok: true, value: JSON.parse(text) };
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

/** Reads a stream of unknown length, stopping past `limit` bytes (then `undefined`). */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
  const media = type.split(";", 1)[0]!.trim().toLowerCase();
  return media === "application/json" ||
    (media.startsWith("application/") && media.endsWith("+json"));
}

function tooLarge(limit: number, instance: string): Problem {
  return problem(413, "CONTENT_TOO_LARGE", `The body is larger than ${limit} bytes`, instance);
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
