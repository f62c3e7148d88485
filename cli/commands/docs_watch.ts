import { existsSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../project/kit_config.ts";
import { docs } from "./docs.ts";

/** Options of {@linkcode watchDocs}. */
export interface WatchDocsOptions {
  /** Stops the watch (the promise of `watchDocs` then settles). */
  readonly signal?: AbortSignal;
  /** Changes this close together regenerate once (milliseconds; 150 unless given). */
  readonly debounceMs?: number;
  /** Where the lines go (`console.log` unless given). */
  readonly report?: (line: string) => void;
}

/**
 * `kit docs --watch`: regenerates the derived files, then again whenever a file under
 * `src/contexts/` or `kit.config.json` changes (changes within `debounceMs` of each other run
 * it once). Prints one line once it watches, one per regeneration that wrote files, one per
 * failure (a source it cannot read, a CONTEXT.md without its region), and keeps watching. Its
 * own writes do not trigger it again. Runs until `signal` aborts.
 *
 * @param cwd A folder of the project.
 * @param options The signal, the debounce, where lines go.
 * @returns Once the watch stopped.
 */
export async function watchDocs(cwd: string, options: WatchDocsOptions = {}): Promise<void> {
  const root = findProjectRoot(cwd);
  const report = options.report ?? ((line: string) => console.log(line));
  const debounceMs = options.debounceMs ?? 150;
  let ownWrites = new Set<string>();
  const regenerate = async (): Promise<void> => {
    try {
      const written = await docs(root);
      ownWrites = new Set(written.map((path) => join(root, path)));
      if (written.length > 0) report(`kit docs --watch: wrote ${written.join(", ")}`);
    } catch (error) {
      ownWrites = new Set();
      report(`kit docs --watch: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  await regenerate();
  if (options.signal?.aborted) return;
  const watched = [join(root, "src/contexts"), join(root, "kit.config.json")].filter((path) =>
    existsSync(path)
  );
  const watcher = Deno.watchFs(watched, { recursive: true });
  const stop = () => watcher.close();
  options.signal?.addEventListener("abort", stop, { once: true });
  report(`kit docs --watch: watching ${watched.map((p) => p.slice(root.length + 1)).join(", ")}`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  try {
    for await (const event of watcher) {
      if (event.kind === "access" || event.paths.every((path) => ownWrites.has(path))) continue;
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(regenerate);
      }, debounceMs);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stop);
    await running;
  }
}
