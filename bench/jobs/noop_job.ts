/**
 * The job the kit job benchmarks run: it does nothing but tell the listener set by
 * {@linkcode onNoopStart} that its handler began.
 */
import type { BackgroundJobExecution } from "@kit/kernel";
import { Background } from "@kit/jobs";

let onStart: () => void = () => {};

/** Sets what each run of {@linkcode Noop} calls as it begins (the last one set). */
export function onNoopStart(listener: () => void): void {
  onStart = listener;
}

/** A background job that only calls the listener of {@linkcode onNoopStart}. */
@Background()
export class Noop {
  static readonly jobName = "bench.noop";
  run(_payload: { n: number }, _execution: BackgroundJobExecution): Promise<void> {
    onStart();
    return Promise.resolve();
  }
}
