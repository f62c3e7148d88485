/**
 * A small server speaking the Upstash REST protocol (a JSON array command POSTed to `/`, arrays
 * of them to `/pipeline` and `/multi-exec`, answers `{ result }` or `{ error }`, strings
 * base64-encoded under `Upstash-Encoding: base64`), forwarding each command to a real Redis over
 * TCP. It lets the `@upstash/redis` adapter be tested against the real server. Test-only (Deno).
 */
import { Redis } from "ioredis";

/** A running bridge. */
export interface UpstashRestBridge {
  /** The REST URL to give `@upstash/redis`. */
  readonly url: string;
  /** The token it accepts. */
  readonly token: string;
  /** Stops the server and closes the Redis connection. */
  close(): Promise<void>;
}

/** Starts a bridge to the Redis at `redisUrl`, on a free loopback port. */
export async function startUpstashRestBridge(redisUrl: string): Promise<UpstashRestBridge> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const token = crypto.randomUUID();
  const run = async (
    command: unknown,
    base64: boolean,
  ): Promise<{ result?: unknown; error?: string }> => {
    if (!Array.isArray(command) || command.length === 0) {
      return { error: "ERR a command is a non-empty array" };
    }
    const [name, ...args] = command.map(String);
    try {
      const result = await redis.call(name!, args);
      return { result: base64 ? encode(result) : result };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      if (request.headers.get("authorization") !== `Bearer ${token}`) {
        return Response.json({ error: "Unauthorized" }, { status: 401 });
      }
      const base64 = request.headers.get("upstash-encoding") === "base64";
      const path = new URL(request.url).pathname;
      const body = await request.json();
      if (path === "/pipeline" || path === "/multi-exec") {
        const results = [];
        for (const command of body as unknown[]) results.push(await run(command, base64));
        return Response.json(results);
      }
      const answer = await run(body, base64);
      return Response.json(answer, { status: answer.error === undefined ? 200 : 400 });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    token,
    async close() {
      await server.shutdown();
      redis.disconnect();
    },
  };
}

function encode(value: unknown): unknown {
  if (typeof value === "string") {
    return value === "OK" ? value : btoa(String.fromCharCode(...new TextEncoder().encode(value)));
  }
  if (Array.isArray(value)) return value.map(encode);
  return value;
}
