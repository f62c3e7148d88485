import { currentScope, isRefusal, runInScope } from "@kit/kernel";
import type { WorkScope } from "@kit/kernel/internal";
import { defineRoute, type FunctionRoute } from "@kit/http";
import { ReadJobCounts, ReadJobPage } from "./messages.ts";

/** How the event stream of the dashboard paces itself (see `JobsDashboardOptions.events`). */
export interface DashboardEventOptions {
  /** How often the stream reads the counts and the running jobs, in ms (default 1,000). */
  readonly intervalMs?: number;
  /**
   * How long one stream lasts, in ms (default 5 minutes): then it ends and the page connects
   * again, so that a token that has expired meanwhile stops being served.
   */
  readonly maxDurationMs?: number;
}

/** The open event streams of one dashboard, ended together by `close()`. */
export interface DashboardStreams {
  /** Ends every open stream; streams opened afterwards end after their first snapshot. */
  close(): void;
  /** How many streams are open. */
  readonly open: number;
}

/** The most running jobs one snapshot carries (their progress). */
const runningLimit = 100;

const encoder = new TextEncoder();

/**
 * The route of the dashboard's event stream, `GET <prefix>/events` (`text/event-stream`, the
 * permission `jobs.read`): a `snapshot` event at once, then again each interval in which it
 * changed — each queue's counts by status and the progress of the running jobs, read on the bus
 * as the caller (its permission and tenancy). It reads only while a client is connected, and
 * ends when the client goes away (the request's `signal`, or the body cancelled), when
 * `close()` is called (before a server's graceful shutdown, which waits for open answers), or
 * after `maxDurationMs`. A caller refused meanwhile gets a `refused` event and the end.
 */
export function dashboardEventRoute(
  options: {
    readonly prefix: string;
    readonly security: readonly string[];
    readonly tags: readonly string[];
    readonly events?: DashboardEventOptions;
  },
): { readonly route: FunctionRoute; readonly streams: DashboardStreams } {
  const intervalMs = options.events?.intervalMs ?? 1_000;
  const maxDurationMs = options.events?.maxDurationMs ?? 5 * 60_000;
  const open = new Set<() => void>();
  let closed = false;
  const streams: DashboardStreams = {
    close() {
      closed = true;
      for (const end of [...open]) end();
    },
    get open() {
      return open.size;
    },
  };
  const route = defineRoute({
    method: "GET",
    path: options.prefix.replace(/\/+$/, "") + "/events",
    operationId: "jobsDashboardEvents",
    permissions: [ReadJobCounts, ReadJobPage],
    summary:
      "Server-sent events (text/event-stream): each queue's counts and the running jobs' progress, as they change (permission jobs.read)",
    security: options.security,
    tags: options.tags,
    responses: {
      200: {
        description:
          "`event: snapshot` with `data: {queues, running: [{id, queue, name, progress}]}`, at once and on each change; `event: refused` with `data: {status, code}` before the end when the caller is refused meanwhile",
      },
    },
  }, async ({ context }) => {
    const actor = context.execution.actor;
    const scope: WorkScope = currentScope() ?? { execution: context.execution };
    const snapshot = async (): Promise<string> => {
      const [queues, running] = await runInScope(scope, () =>
        Promise.all([
          context.queries.execute(new ReadJobCounts(actor)),
          context.queries.execute(
            new ReadJobPage(actor, { status: "running", limit: runningLimit }),
          ),
        ]));
      return JSON.stringify({
        queues,
        running: running.jobs.map((job) => ({
          id: job.id,
          queue: job.queue,
          name: job.name,
          progress: job.progress.total === undefined
            ? { done: job.progress.done }
            : { done: job.progress.done, total: job.progress.total },
        })),
      });
    };
    // The first read is made before answering: a caller without jobs.read gets the JSON 403.
    const first = await snapshot();
    const signal = context.request.signal;
    const startedAt = Date.now();
    let last = first;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const send = (text: string) => {
      try {
        controller.enqueue(encoder.encode(text));
      } catch {
        end();
      }
    };
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      open.delete(end);
      signal.removeEventListener("abort", end);
      try {
        controller.close();
      } catch {
        // Already closed or cancelled by the client.
      }
    };
    const tick = async () => {
      if (ended) return;
      if (Date.now() - startedAt >= maxDurationMs) return end();
      try {
        const next = await snapshot();
        if (ended) return;
        if (next !== last) send(`event: snapshot\ndata: ${next}\n\n`);
        else send(": idle\n\n");
        last = next;
      } catch (error) {
        if (ended) return;
        // Refused meanwhile (a permission withdrawn): said, and the page does not come back.
        // Anything else (the store out of reach) just ends the stream: the page connects again.
        if (isRefusal(error) && (error.code === "UNAUTHORIZED" || error.code === "FORBIDDEN")) {
          const status = error.code === "UNAUTHORIZED" ? 401 : 403;
          send(`event: refused\ndata: ${JSON.stringify({ status, code: error.code })}\n\n`);
        }
        return end();
      }
      if (!ended) timer = setTimeout(tick, intervalMs);
    };
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        controller.enqueue(encoder.encode(`event: snapshot\ndata: ${first}\n\n`));
        if (closed || signal.aborted) return end();
        open.add(end);
        signal.addEventListener("abort", end, { once: true });
        timer = setTimeout(tick, intervalMs);
      },
      cancel() {
        end();
      },
    });
    return {
      status: 200,
      body,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    };
  });
  return { route, streams };
}
