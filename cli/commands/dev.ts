import { findProjectRoot } from "../project/kit_config.ts";
import { watchDocs } from "./docs_watch.ts";

/** Options of {@linkcode dev}. */
export interface DevOptions {
  /**
   * How long the server's graceful shutdown may take after SIGINT or SIGTERM before its watcher
   * process is killed (milliseconds; 10,000 unless given).
   */
  readonly graceMs?: number;
}

/** Deno's watcher line once the program it runs has ended (`Watcher Process finished. ...`). */
const finishedLine = /Process finished/;
/** Deno's watcher lines when it (re)starts the program. */
const startedLine = /Process started|Restarting!/;

/**
 * `kit dev` (`deno task dev`): `kit docs --watch` in this process beside
 * `deno run -A --watch --no-clear-screen src/main.ts`, their output on this process's, until
 * SIGINT or SIGTERM. Then both end: the server is sent SIGTERM (its graceful shutdown runs), and
 * once Deno's watcher says the program finished, or after `graceMs`, the watcher itself is killed
 * (`deno run --watch` outlives the program it restarts: left alone, it would start the server
 * again on the next file change); the docs watch stops. Ends too, with its code, when the
 * watcher does.
 *
 * @param cwd A folder of the project.
 * @param options How long the shutdown may take.
 * @returns The exit code: 0 when stopped by a signal.
 */
export async function dev(cwd: string, options: DevOptions = {}): Promise<number> {
  const root = findProjectRoot(cwd);
  const graceMs = options.graceMs ?? 10_000;
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--watch", "--no-clear-screen", "src/main.ts"],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const watcher: Watcher = { idle: false, finished: () => {} };
  const copying = copyOutput(server, watcher);
  const docsWatch = new AbortController();
  const watching = watchDocs(root, { signal: docsWatch.signal });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => stopping ??= stopServer(server, watcher, graceMs);
  const signals = ["SIGINT", "SIGTERM"] as const;
  const onSignal = () => void stop();
  for (const name of signals) Deno.addSignalListener(name, onSignal);
  try {
    const status = await server.status;
    return stopping === undefined ? status.code : 0;
  } finally {
    for (const name of signals) Deno.removeSignalListener(name, onSignal);
    docsWatch.abort();
    await watching;
    await copying;
  }
}

/** What Deno's watcher said last of the program it runs. */
interface Watcher {
  /** The program finished, and the watcher waits for a file change. */
  idle: boolean;
  /** Called when the watcher says the program finished. */
  finished: () => void;
}

/** Copies the watcher's output on this process's, following what it says of the program. */
function copyOutput(server: Deno.ChildProcess, watcher: Watcher): Promise<void[]> {
  const copied = [
    [server.stdout, Deno.stdout],
    [server.stderr, Deno.stderr],
  ] as const;
  return Promise.all(copied.map(([from, to]) => {
    const decoder = new TextDecoder();
    return from.pipeTo(
      new WritableStream({
        async write(chunk) {
          // deno-lint-ignore no-control-regex
          const text = decoder.decode(chunk, { stream: true }).replace(/\x1b\[[0-9;]*m/g, "");
          if (startedLine.test(text)) watcher.idle = false;
          if (finishedLine.test(text)) {
            watcher.idle = true;
            watcher.finished();
          }
          await to.write(chunk);
        },
      }),
    ).catch(() => {});
  }));
}

/**
 * Sends the server SIGTERM (unless it finished), then kills the watcher once it says the program
 * finished, or the watcher ended, or after `graceMs`.
 */
async function stopServer(
  server: Deno.ChildProcess,
  watcher: Watcher,
  graceMs: number,
): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    watcher.finished = resolve;
    if (watcher.idle) resolve();
  });
  if (!watcher.idle) signal(server, "SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    ended,
    server.status,
    new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
  ]);
  clearTimeout(timer);
  signal(server, "SIGKILL");
}

/** Sends a signal to the child unless it has exited already. */
function signal(child: Deno.ChildProcess, name: Deno.Signal): void {
  try {
    child.kill(name);
  } catch {
    // It exited meanwhile.
  }
}
