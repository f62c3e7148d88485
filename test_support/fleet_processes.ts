/**
 * What the fleet specs and the fleet benchmark share: a database of their own on the PostgreSQL of
 * `DATABASE_URL` (created, then dropped), and processes on this machine standing in for machines,
 * each started with its own environment and ended by its PID (SIGKILL or SIGTERM), never by name.
 *
 * Not published: tests and benchmarks import it by relative path.
 */
import postgres from "postgres";

/** A process of the fleet. */
export interface FleetProcess {
  /** Its name in the spec's messages (`api-1`, `worker-2`). */
  readonly name: string;
  /** Its process id. */
  readonly pid: number;
  /** Whether it still runs. */
  alive(): boolean;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** The CPU time it used so far (user and system, ms), read from `/proc` (Linux); 0 elsewhere. */
  cpuMs(): number;
  /** Kills it (SIGKILL to its PID: nothing of it runs after) and waits for its end. */
  kill(): Promise<void>;
  /** Sends SIGTERM and waits for its end. */
  stop(): Promise<void>;
}

/**
 * Starts `deno run -A <program>` with only `env` (and PATH, HOME), waits until it prints
 * `started` (60 s at most: it fails naming what it printed).
 */
export async function startProcess(
  name: string,
  program: string,
  env: Readonly<Record<string, string>>,
  started: string,
): Promise<FleetProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", program],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
      ...env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let status: Deno.CommandStatus | undefined;
  const ended = child.status.then((s) => status = s);
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output = (output + text).slice(-20_000);
    }
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let lastCpuMs = 0;
  const cpuMs = (): number => {
    if (status !== undefined) return lastCpuMs;
    try {
      const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name; in clock ticks
      // (USER_HZ, 100 on Linux: 10 ms each).
      lastCpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // not Linux, or gone
    }
    return lastCpuMs;
  };
  const end = async (signal: Deno.Signal) => {
    if (status === undefined) {
      cpuMs();
      try {
        child.kill(signal);
      } catch {
        // it ended meanwhile
      }
    }
    await ended;
    await drained;
  };
  const deadline = Date.now() + 60_000;
  while (!output.includes(started)) {
    if (status !== undefined || Date.now() > deadline) {
      await end("SIGKILL");
      throw new Error(`${name} did not start:\n${output.slice(-3_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    name,
    pid: child.pid,
    alive: () => status === undefined,
    output: () => output,
    cpuMs,
    kill: () => end("SIGKILL"),
    stop: () => end("SIGTERM"),
  };
}

/** A database of its own: its URL, and a client on it. */
export interface FleetDatabase {
  readonly url: string;
  readonly sql: postgres.Sql;
}

/**
 * Runs `fn` on a new database (`fleet_<random>`) of the server of `serverUrl`, then drops it
 * (`with (force)`: a process killed mid-query leaves no session that holds the drop).
 */
export async function withFleetDatabase<T>(
  serverUrl: string,
  fn: (db: FleetDatabase) => Promise<T>,
): Promise<T> {
  const name = `fleet_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { max: 4, onnotice: () => {} });
  try {
    return await fn({ url: url.href, sql });
  } finally {
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

/** Ends the processes still running (SIGTERM; SIGKILL after `ms`), each by its PID. */
export async function stopAll(processes: readonly FleetProcess[], ms = 5_000): Promise<void> {
  await Promise.all(processes.map(async (process) => {
    if (!process.alive()) return;
    const timer = setTimeout(() => process.kill(), ms);
    try {
      await process.stop();
    } finally {
      clearTimeout(timer);
    }
  }));
}
