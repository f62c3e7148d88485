/**
 * A PostgreSQL server of a test's own, for the fault tests: `initdb` in a temporary directory, a
 * free port on loopback, started and stopped by its own data directory and postmaster PID, so
 * that a test can stop, restart and kill it without ever touching the shared server on 5432.
 * When the test runs as root (as on CI machines), the server runs as the `postgres` user.
 *
 * Not published: tests import it by relative path.
 *
 * @module
 */
import postgres from "postgres";

const binaries = Deno.env.get("KIT_PG_BIN") ?? "/usr/lib/postgresql/15/bin";

/** A running (or stopped) private server: its address, its PID, and how to hurt it. */
export interface PrivatePostgres {
  /** The URL of its `postgres` database, as the superuser `postgres` (trust on loopback). */
  readonly url: string;
  /** The loopback port it listens on. */
  readonly port: number;
  /** Its data directory (removed by {@linkcode PrivatePostgres.dispose}). */
  readonly dataDir: string;
  /** The postmaster's PID, or undefined while the server is stopped. */
  pid(): Promise<number | undefined>;
  /** Starts the server and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (`fast`: backends terminated, clean shutdown), waiting until it exited. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** `pg_ctl restart -m <mode>`: stops and starts again, waiting until it accepts connections. */
  restart(mode?: "fast" | "immediate"): Promise<void>;
  /** Terminates every client backend (`pg_terminate_backend`); answers how many. */
  terminateBackends(): Promise<number>;
  /** Stops the server (by PID, SIGKILL if it does not go) and removes its data directory. */
  dispose(): Promise<void>;
}

/** What a private server is started with. */
export interface PrivatePostgresOptions {
  /** Server settings (`-c name=value`) over the defaults (fsync off: a test needs no disk safety). */
  readonly settings?: Readonly<Record<string, string>>;
}

/** Whether the binaries a private server needs are on this machine. */
export function privatePostgresAvailable(): boolean {
  try {
    return Deno.statSync(`${binaries}/initdb`).isFile &&
      Deno.statSync(`${binaries}/pg_ctl`).isFile;
  } catch {
    return false;
  }
}

/**
 * Creates and starts a private server (about 2 s). Dispose of it in a `finally`.
 *
 * @example
 * ```ts ignore
 * const server = await startPrivatePostgres();
 * try {
 *   await server.restart("fast");
 * } finally {
 *   await server.dispose();
 * }
 * ```
 */
export async function startPrivatePostgres(
  options: PrivatePostgresOptions = {},
): Promise<PrivatePostgres> {
  await reapOrphans();
  const root = await Deno.makeTempDir({ prefix: "kit-pg-" });
  await Deno.writeTextFile(`${root}/${ownerFile}`, String(Deno.pid));
  const dataDir = `${root}/data`;
  const owner = await serverOwner();
  if (owner !== undefined) await Deno.chown(root, owner.uid, owner.gid);
  await run(owner, `${binaries}/initdb`, [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "--encoding=UTF8",
    "--no-instructions",
    "--no-sync",
  ]);
  const port = freePort();
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: root,
    fsync: "off",
    full_page_writes: "off",
    max_connections: "100",
    ...options.settings,
  };
  const serverOptions = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
  const pgCtl = (args: string[]) =>
    run(owner, `${binaries}/pg_ctl`, [
      "-D",
      dataDir,
      "-s",
      "-w",
      "-t",
      "30",
      ...args,
    ]);
  const logFile = `${root}/server.log`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function pid(): Promise<number | undefined> {
    try {
      const text = await Deno.readTextFile(`${dataDir}/postmaster.pid`);
      const value = Number(text.split("\n")[0]);
      return Number.isInteger(value) && value > 0 && alive(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  const server: PrivatePostgres = {
    url,
    port,
    dataDir,
    pid,
    start: () => pgCtl(["start", "-l", logFile, "-o", serverOptions]),
    async stop(mode = "fast") {
      const current = await pid();
      if (current === undefined) return;
      // The postmaster's own signals: SIGINT is a fast shutdown, SIGQUIT an immediate one.
      Deno.kill(current, mode === "fast" ? "SIGINT" : "SIGQUIT");
      await exited(current, 30_000);
    },
    async restart(mode = "fast") {
      await pgCtl(["restart", "-m", mode, "-l", logFile, "-o", serverOptions]);
    },
    async terminateBackends() {
      const admin = postgres(url, {
        max: 1,
        onnotice: () => {},
        connect_timeout: 5,
      });
      try {
        const rows = await admin`
          select pg_terminate_backend(pid) as done from pg_stat_activity
          where pid <> pg_backend_pid() and backend_type = 'client backend'`;
        return rows.filter((row) => row.done === true).length;
      } finally {
        await admin.end({ timeout: 1 });
      }
    },
    async dispose() {
      const current = await pid();
      if (current !== undefined) {
        Deno.kill(current, "SIGQUIT");
        if (!(await exited(current, 10_000))) Deno.kill(current, "SIGKILL");
        await exited(current, 10_000);
      }
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
  try {
    await server.start();
  } catch (error) {
    const log = await Deno.readTextFile(logFile).catch(() => "");
    await server.dispose();
    throw new Error(
      `The private PostgreSQL did not start: ${log.slice(-2000)}`,
      { cause: error },
    );
  }
  return server;
}

/**
 * Runs `fn` with a private server, disposed of afterwards whatever happens.
 */
export async function withPrivatePostgres<T>(
  fn: (server: PrivatePostgres) => Promise<T>,
  options: PrivatePostgresOptions = {},
): Promise<T> {
  const server = await startPrivatePostgres(options);
  try {
    return await fn(server);
  } finally {
    await server.dispose();
  }
}

const ownerFile = "test.pid";

/**
 * Stops and removes the private servers that a test process left behind when it was killed
 * (its PID, in the server's directory, no longer runs): each by its own postmaster PID.
 */
async function reapOrphans(): Promise<void> {
  const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
  for await (const entry of Deno.readDir(tmp)) {
    if (!entry.isDirectory || !entry.name.startsWith("kit-pg-")) continue;
    const root = `${tmp}/${entry.name}`;
    const owner = Number(await Deno.readTextFile(`${root}/${ownerFile}`).catch(() => ""));
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    const text = await Deno.readTextFile(`${root}/data/postmaster.pid`).catch(() => "");
    const postmaster = Number(text.split("\n")[0]);
    if (Number.isInteger(postmaster) && postmaster > 0 && alive(postmaster)) {
      Deno.kill(postmaster, "SIGQUIT");
      await exited(postmaster, 10_000);
    }
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

interface Owner {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** PostgreSQL refuses to run as root: then the server runs as the `postgres` user. */
async function serverOwner(): Promise<Owner | undefined> {
  if (Deno.uid() !== 0) return undefined;
  const uid = Number(await output("id", ["-u", "postgres"]));
  const gid = Number(await output("id", ["-g", "postgres"]));
  return { name: "postgres", uid, gid };
}

async function run(
  owner: Owner | undefined,
  command: string,
  args: string[],
): Promise<void> {
  const [program, programArgs] = owner === undefined
    ? [command, args]
    : ["runuser", ["-u", owner.name, "--", command, ...args]];
  const result = await new Deno.Command(program, {
    args: programArgs,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  if (!result.success) {
    const text = new TextDecoder().decode(result.stderr) +
      new TextDecoder().decode(result.stdout);
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.code}): ${text.trim()}`,
    );
  }
}

async function output(command: string, args: string[]): Promise<string> {
  const result = await new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "null",
  })
    .output();
  if (!result.success) throw new Error(`${command} ${args.join(" ")} failed`);
  return new TextDecoder().decode(result.stdout).trim();
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

async function exited(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
