/**
 * Helpers for the CLI's tests of a generated project's platform: a database of its own, an
 * entry point (`src/main.ts`, `apps/<service>/main.ts`) run as a subprocess on a port of its own.
 *
 * @module
 */
import postgres from "postgres";

/** A database created for one test, and how to drop it. */
export interface TestDatabase {
  /** Its connection URL. */
  readonly url: string;
  /** A client of it. */
  readonly sql: postgres.Sql;
  /** Closes the client and drops the database. */
  drop(): Promise<void>;
}

/** Creates a fresh database on the server of `DATABASE_URL`. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `kit_platform_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { max: 2, onnotice: () => {} });
  return {
    url: url.href,
    sql,
    async drop() {
      await sql.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A process serving a generated project. */
export interface ServedProject {
  /** Its address (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** What it printed so far. */
  output(): string;
  /** Stops it (SIGTERM) and answers its exit code. */
  stop(): Promise<number>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Runs `deno run -A <entry>` in `dir` with `env` and a port of its own; answers once it printed
 * `listening on`, or fails with its output when it exits or stays silent for 90 seconds.
 */
export function serveProject(
  dir: string,
  entry: string,
  env: Record<string, string>,
): Promise<ServedProject> {
  return serveCommand(dir, Deno.execPath(), ["run", "-A", entry], env);
}

/**
 * Runs `program` with `args` in `dir` with `env` and a port of its own (`PORT`); answers once it
 * printed `ready` (default `listening on`), or fails with its output when it exits or stays
 * silent for 90 seconds.
 */
export async function serveCommand(
  dir: string,
  program: string,
  args: readonly string[],
  env: Record<string, string>,
  ready: RegExp = /listening on/,
): Promise<ServedProject> {
  const entry = [program, ...args].join(" ");
  const port = freePort();
  const child = new Deno.Command(program, {
    args: [...args],
    cwd: dir,
    // Unset unless given: the test's own DATABASE_URL and REDIS_URL must not leak in.
    env: { NO_COLOR: "1", DATABASE_URL: "", REDIS_URL: "", ...env, PORT: String(port) },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (text += chunk) }),
    );
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let exited: Deno.CommandStatus | undefined;
  const status = child.status.then((s) => (exited = s));
  const deadline = Date.now() + 90_000;
  while (!ready.test(text)) {
    if (exited !== undefined || Date.now() > deadline) {
      if (exited === undefined) child.kill("SIGKILL");
      await status;
      await drained;
      throw new Error(`${entry} did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => text,
    async stop() {
      if (exited === undefined) child.kill("SIGTERM");
      const { code } = await status;
      await drained;
      return code;
    },
  };
}
