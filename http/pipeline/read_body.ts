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
  const type = request.headers.get("content-type");
  if (request.body === null) return { ok: true, value: undefined };
  const length = request.headers.get("content-length");
  if (
    length === "0" ||
    (length === null && !request.headers.has("transfer-encoding") && type === null)
  ) {
    return { ok: true, value: undefined };
  }
  if (type === null || !isJson(type)) {
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
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) return { ok: false, problem: tooLarge(limit, instance) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, problem: tooLarge(limit, instance) };
    }
    chunks.push(value);
  }
  if (size === 0) return { ok: true, value: undefined };
  const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks, size);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
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
