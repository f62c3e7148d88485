/**
 * An open-loop HTTP load generator: requests leave on a fixed schedule, one every `1 / rate`
 * seconds, whether or not the server has answered the ones before, spread over `connections`
 * keep-alive connections (raw `node:net` sockets, one request in flight per connection, no
 * pipelining). A due request waits for the first idle connection; requests due while every
 * connection is busy queue, in order, in the generator.
 *
 * Every request's latency is measured **from its scheduled send time**, not from the moment it
 * left: the correction for coordinated omission (Gil Tene, "How NOT to Measure Latency", and
 * wrk2's `-R`, which does the same from each request's intended send time). A closed-loop
 * generator (`wrk`, `autocannon`) sends the next request on a connection only when the previous
 * one was answered, so a server that stalls for 100 ms is sent nothing during the stall and the
 * requests a real client would have sent then, and waited for, are never counted: its
 * percentiles hide the stall. Here a stall delays every request scheduled during it, and each is
 * counted with the wait it would have had.
 *
 * Debian has `wrk` but not wrk2; `autocannon --overallRate` sends each connection's quota of the
 * second in a burst and corrects its latencies afterwards with a fixed 1 ms interval
 * (bench/http/README.md says more); hence this file. The generator's own delay shows
 * in `generatorLag` (actual send minus the later of the scheduled send and the moment a
 * connection was free): at the rates it is used at it must stay far below the server's latency,
 * or the generator is the bottleneck. bench/http/README.md gives the rates it drives on this machine.
 *
 * CLI (Deno, or Node on a `deno bundle --platform node` of this file):
 *
 * `open_loop.ts --rate <req/s> [--seconds 5] [--warmup 1] [--connections 32] [--method POST]
 * [--header "name: value"]... [--body <text>] [--tokens <file>] <url>`
 *
 * `--tokens` names a file of bearer tokens, one a line, sent round-robin in `Authorization`. Prints
 * one JSON line, {@linkcode OpenLoopResult}.
 *
 * @module
 */
import { connect, type Socket } from "node:net";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import process from "node:process";

/** The scheduled send time, in ms after the start, of request `index` at `rate` req/s. */
export function scheduledAt(index: number, rate: number): number {
  return (index * 1000) / rate;
}

/** How many requests are due (scheduled at or before) `elapsedMs` after the start, at most `total`. */
export function dueCount(elapsedMs: number, rate: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor((elapsedMs * rate) / 1000) + 1);
}

/**
 * The `p`th percentile (0 < p <= 100) of `sorted` (ascending) by the nearest-rank method: the
 * smallest value with at least p % of the values at or below it. NaN when empty.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Latency figures, in ms. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

/** p50, p90, p99, p99.9 and max of `values` (not changed), in their unit. */
export function summarize(values: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}

const CRLFCRLF = Buffer.from("\r\n\r\n");

/**
 * Where the first HTTP/1.1 response in `data` ends, and its status: `undefined` while it is
 * incomplete. Knows `Content-Length` and `Transfer-Encoding: chunked` bodies (and none for 204 and
 * 304); a response with neither is taken as having no body.
 */
export function responseEnd(data: Buffer): { end: number; status: number } | undefined {
  const headEnd = data.indexOf(CRLFCRLF);
  if (headEnd < 0) return undefined;
  const head = data.toString("latin1", 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { end: bodyStart, status };
  }
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return data.length >= end ? { end, status } : undefined;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = data.indexOf("\r\n", at, "latin1");
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(data.toString("latin1", at, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error("malformed chunk size");
      if (size === 0) {
        // Trailers (none expected) end with an empty line.
        const end = data.indexOf(CRLFCRLF, lineEnd, "latin1");
        if (data.length >= lineEnd + 4 && data[lineEnd + 2] === 13 && data[lineEnd + 3] === 10) {
          return { end: lineEnd + 4, status };
        }
        return end < 0 ? undefined : { end: end + 4, status };
      }
      at = lineEnd + 2 + size + 2;
      if (data.length < at) return undefined;
    }
  }
  return { end: bodyStart, status };
}

/** One request as the generator sends it. */
export interface RequestSpec {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Bearer tokens sent round-robin in `Authorization`, one per request. */
  readonly tokens?: readonly string[];
}

/** The raw requests of `spec` to `url`: one per token, or one. */
export function rawRequests(url: URL, spec: RequestSpec): Buffer[] {
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
  const head = (token?: string) => {
    let text = `${
      spec.method ?? "GET"
    } ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const [name, value] of Object.entries(spec.headers ?? {})) text += `${name}: ${value}\r\n`;
    if (token !== undefined) text += `authorization: Bearer ${token}\r\n`;
    if (body) text += `content-length: ${body.length}\r\n`;
    return Buffer.from(text + "\r\n", "latin1");
  };
  const build = (token?: string) => body ? Buffer.concat([head(token), body]) : head(token);
  return spec.tokens?.length ? spec.tokens.map(build) : [build()];
}

/** What {@linkcode runOpenLoop} measured. Latencies in ms. */
export interface OpenLoopResult {
  /** The rate asked for, req/s. */
  readonly rate: number;
  /** Responses completed per second over the schedule's span (until the last response). */
  readonly achieved: number;
  readonly scheduled: number;
  readonly completed: number;
  /** Non-2xx answers, socket errors, and requests unanswered at the deadline. */
  readonly errors: number;
  /** Latency from each request's scheduled send time to its full response. */
  readonly latency: LatencySummary;
  /** Actual send minus scheduled send: queueing while every connection is busy, plus the
   * generator's own lateness. */
  readonly sendLag: LatencySummary;
  /** The generator's own lateness: actual send minus the later of the scheduled send and the
   * moment a connection was free for it. Far below the latency, or the generator is the
   * bottleneck. */
  readonly generatorLag: LatencySummary;
  /** The generator's CPU time (user + system) over the run, in cores (1 = one core busy). */
  readonly generatorCores: number;
}

/** Options of {@linkcode runOpenLoop}. */
export interface OpenLoopOptions extends RequestSpec {
  readonly url: string;
  /** Requests per second. */
  readonly rate: number;
  /** The measured schedule's length. */
  readonly seconds: number;
  /** A schedule at the same rate before it, on the same connections, not measured (default 1 s):
   * the generator's code is compiled and the server's connections busy before the clock runs. */
  readonly warmupSeconds?: number;
  readonly connections: number;
  /** How long after the last scheduled send unanswered requests are waited for (ms, default
   * 2000); those still unanswered then count as errors. */
  readonly graceMs?: number;
}

interface Connection {
  socket: Socket;
  /** The request in flight on it (index in its phase's schedule), or -1 when idle. */
  index: number;
  phase: Phase | undefined;
  data: Buffer | undefined;
  /** When it last became free (performance.now()). */
  idleSince: number;
}

interface Phase {
  readonly total: number;
  readonly latencies: Float64Array;
  readonly lags: number[];
  readonly generatorLags: number[];
  start: number;
  issued: number;
  completed: number;
  errors: number;
  lastDone: number;
  finish(): void;
}

/**
 * Sends `rate` requests per second on a fixed schedule, for `warmupSeconds` then for `seconds`,
 * and measures the second schedule.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const url = new URL(options.url);
  const requests = rawRequests(url, options);
  const rate = options.rate;
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  let phase: Phase | undefined;
  let timer: { cancel(): void } | undefined;
  const settled = (p: Phase) => p.completed + p.errors;

  const failed = (connection: Connection) => {
    const at = idle.indexOf(connection);
    if (at >= 0) idle.splice(at, 1);
    all.delete(connection);
    if (connection.index >= 0 && connection.phase) {
      connection.phase.errors++;
      if (settled(connection.phase) === connection.phase.total) connection.phase.finish();
    }
    connection.index = -1;
  };

  const open = () =>
    new Promise<Connection>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port || 80), noDelay: true });
      const connection: Connection = {
        socket,
        index: -1,
        phase: undefined,
        data: undefined,
        idleSince: 0,
      };
      socket.once("connect", () => {
        socket.off("error", reject);
        socket.on("error", () => failed(connection));
        socket.on("close", () => failed(connection));
        all.add(connection);
        resolve(connection);
      });
      socket.once("error", reject);
      socket.on("data", (chunk: Buffer) => onData(connection, chunk));
    });

  const onData = (connection: Connection, chunk: Buffer) => {
    const p = connection.phase;
    if (!p || connection.index < 0) return; // nothing asked on it: not an answer to count
    const data = connection.data ? Buffer.concat([connection.data, chunk]) : chunk;
    const response = responseEnd(data);
    if (!response) {
      connection.data = data;
      return;
    }
    connection.data = undefined;
    const now = performance.now();
    if (response.status >= 200 && response.status < 300) {
      p.latencies[connection.index] = now - p.start - scheduledAt(connection.index, rate);
      p.completed++;
      p.lastDone = now;
    } else p.errors++;
    connection.index = -1;
    connection.idleSince = now;
    idle.push(connection);
    if (settled(p) === p.total) p.finish();
    else pump();
  };

  const pump = () => {
    const p = phase;
    if (!p) return;
    const now = performance.now();
    const dueNow = dueCount(now - p.start, rate, p.total);
    while (p.issued < dueNow && idle.length > 0) {
      const connection = idle.pop()!;
      const index = p.issued++;
      connection.index = index;
      connection.phase = p;
      const due = p.start + scheduledAt(index, rate);
      p.lags.push(now - due);
      p.generatorLags.push(now - Math.max(due, connection.idleSince));
      connection.socket.write(requests[index % requests.length]!);
    }
    if (p.issued < p.total && idle.length > 0 && timer === undefined) {
      // The next send is in the future: sleep until then. setTimeout's resolution is 1 ms;
      // closer than 1.5 ms, yield to I/O and look again (setImmediate), which keeps the send lag
      // well under a millisecond, at the cost of a busy core while connections are idle.
      const wait = p.start + scheduledAt(p.issued, rate) - performance.now();
      if (wait >= 1.5) {
        const id = setTimeout(tick, Math.floor(wait - 0.5));
        timer = { cancel: () => clearTimeout(id) };
      } else {
        const id = setImmediate(tick);
        timer = { cancel: () => clearImmediate(id) };
      }
    }
  };
  const tick = () => {
    timer = undefined;
    pump();
  };

  const run = async (seconds: number) => {
    const total = Math.max(1, Math.round(rate * seconds));
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => finish = resolve);
    const p: Phase = {
      total,
      latencies: new Float64Array(total).fill(NaN),
      lags: [],
      generatorLags: [],
      start: performance.now(),
      issued: 0,
      completed: 0,
      errors: 0,
      lastDone: 0,
      finish,
    };
    phase = p;
    pump();
    const giveUp = setTimeout(finish, scheduledAt(total - 1, rate) + (options.graceMs ?? 2000));
    await finished;
    clearTimeout(giveUp);
    phase = undefined;
    timer?.cancel();
    timer = undefined;
    // A connection still waiting for an answer of this phase is replaced by a fresh one.
    for (const connection of [...all]) {
      if (connection.index >= 0) {
        connection.phase = undefined;
        connection.index = -1;
        all.delete(connection);
        connection.socket.destroy();
      }
    }
    const missing = options.connections - all.size;
    idle.length = 0;
    idle.push(...all);
    if (missing > 0) idle.push(...await Promise.all(Array.from({ length: missing }, open)));
    return p;
  };

  idle.push(...await Promise.all(Array.from({ length: options.connections }, open)));
  if ((options.warmupSeconds ?? 1) > 0) await run(options.warmupSeconds ?? 1);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const p = await run(options.seconds);
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;
  for (const connection of all) connection.socket.destroy();
  const answered = p.latencies.filter((value) => !Number.isNaN(value));
  const span = (p.lastDone - p.start) / 1000;
  return {
    rate,
    achieved: span > 0 ? p.completed / span : 0,
    scheduled: p.total,
    completed: p.completed,
    errors: p.total - p.completed,
    latency: summarize(answered),
    sendLag: summarize(p.lags),
    generatorLag: summarize(p.generatorLags),
    generatorCores: (cpu.user + cpu.system) / 1000 / wall,
  };
}

function parseArgs(args: string[]): OpenLoopOptions {
  const headers: Record<string, string> = {};
  let url: string | undefined, rate = NaN, seconds = 5, connections = 32, warmupSeconds = 1;
  let method: string | undefined, body: string | undefined, tokens: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--rate") rate = Number(value());
    else if (arg === "--seconds") seconds = Number(value());
    else if (arg === "--connections") connections = Number(value());
    else if (arg === "--warmup") warmupSeconds = Number(value());
    else if (arg === "--method") method = value();
    else if (arg === "--body") body = value();
    else if (arg === "--header") {
      const [name, ...rest] = value().split(":");
      headers[name!.trim().toLowerCase()] = rest.join(":").trim();
    } else if (arg === "--tokens") {
      tokens = readFileSync(value(), "utf8").split("\n").filter((line) => line.length > 0);
    } else url = arg;
  }
  if (!url || !(rate > 0)) {
    throw new Error(
      "usage: open_loop.ts --rate <req/s> [--seconds 5] [--warmup 1] [--connections 32] " +
        "[--method M] " +
        "[--header 'name: value']... [--body text] [--tokens file] <url>",
    );
  }
  return { url, rate, seconds, warmupSeconds, connections, method, headers, body, tokens };
}

const runningOnDeno = typeof Deno !== "undefined";
const isMain = runningOnDeno
  ? import.meta.main
  : import.meta.url === `file://${process.argv[1] ?? ""}`;
if (isMain) {
  const result = await runOpenLoop(parseArgs(runningOnDeno ? Deno.args : process.argv.slice(2)));
  console.log(JSON.stringify(result));
}
