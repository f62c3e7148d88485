import type { Container } from "../composition/container.ts";
import type { AnyClass } from "../declarations/declaration.ts";
import { Logger } from "../logging/logger.ts";
import { Clock } from "../time/clock.ts";
import { ProcessDeadlines } from "./process_deadlines.ts";
import type { ProcessManagerDeclaration } from "./process_manager.ts";
import { ProcessRuntime } from "./process_runtime.ts";
import { ProcessStore } from "./process_store.ts";

const runtimes = new WeakMap<Container, Map<AnyClass, ProcessRuntime>>();

/**
 * The runtime of a declared process manager class in an application, built once per container
 * from its `ProcessStore`, `ProcessDeadlines` (provided by the jobs plugin), `Clock` and `Logger`.
 * The events plugin delivers the process's events to it; the process's deadline job runs its
 * deadlines on it.
 */
export function processRuntimeOf(
  container: Container,
  target: AnyClass,
  declaration: ProcessManagerDeclaration,
): ProcessRuntime {
  let byClass = runtimes.get(container);
  if (byClass === undefined) runtimes.set(container, byClass = new Map());
  const existing = byClass.get(target);
  if (existing !== undefined) return existing;
  for (
    const [token, what] of [
      [
        ProcessStore,
        "a ProcessStore (InMemoryProcessStore, PostgresProcessStore) in the application's providers",
      ],
      [ProcessDeadlines, "the jobs plugin (jobsPlugin), which runs its deadlines"],
    ] as const
  ) {
    if (!container.has(token)) {
      throw new Error(`Process manager '${declaration.name}' needs ${what}`);
    }
  }
  const runtime = new ProcessRuntime(declaration, () => container.resolve(target) as object, {
    store: container.resolve(ProcessStore),
    deadlines: container.resolve(ProcessDeadlines),
    clock: container.resolve(Clock),
    logger: container.resolve(Logger),
  });
  byClass.set(target, runtime);
  return runtime;
}
