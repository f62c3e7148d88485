/**
 * The outbox relay on PostgreSQL, with its default settings unless a row names one: throughput
 * draining a backlog (10,000 events, with one trivial handler, three trivial handlers, and one
 * handler that records the event with `processOnce`), and delivery lag (commit to handler) while
 * an appender commits 200 events/s, one per transaction as bookings do, for 10 s.
 *
 * Run with `deno task bench`, or alone: `deno run -A bench/outbox_relay.ts` (needs DATABASE_URL;
 * prints one line and exits when it is not set). `BENCH_OUTBOXES=postgres,drizzle,knex` measures
 * the outboxes named (default `postgres`: `PostgresOutbox` on postgres.js; `drizzle`:
 * `DrizzleOutbox` on Drizzle's postgres.js driver; `knex`: `KnexOutbox` on `pg`), one table each. It creates a database of its own and drops it.
 * Every phase has a deadline, so that a relay that falls behind is measured, not waited for; an
 * unmeasured drain of 2,000 events warms the process and the database up first.
 */
import postgres from "postgres";
import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import knex from "knex";
import { z } from "zod";
import {
  type AnyClass,
  Command,
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  EventPublisher,
  eventsPlugin,
  type HandlerContext,
  Handles,
  HandlesEvent,
  type Injectable,
  type IntegrationEvent,
  ProcessedEvents,
  processOnce,
  systemActor,
  token,
  type TransactionManager,
} from "@kit/kernel";
import type { Outbox } from "@kit/kernel/outbox";
import {
  createKernelTables,
  currentDrizzle,
  DrizzleOutbox,
  DrizzleProcessedEvents,
  DrizzleTransactions,
} from "@kit/drizzle";
import {
  createKernelTables as createKnexKernelTables,
  currentKnex,
  KnexOutbox,
  KnexProcessedEvents,
  KnexTransactions,
} from "@kit/knex";
import {
  currentSql,
  migrateKernel,
  PostgresOutbox,
  PostgresProcessedEvents,
  PostgresTransactions,
} from "@kit/kernel/postgres";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.log("skipped: the outbox relay benchmark needs DATABASE_URL");
  Deno.exit(0);
}

const backlog = Number(Deno.env.get("BENCH_BACKLOG") ?? 10_000);
const rate = Number(Deno.env.get("BENCH_RATE") ?? 200);
const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
const drainDeadlineMs = Number(Deno.env.get("BENCH_DEADLINE_MS") ?? 60_000);
const outboxNames = (Deno.env.get("BENCH_OUTBOXES") ?? "postgres").split(",");
for (const name of outboxNames) {
  if (!["postgres", "drizzle", "knex"].includes(name)) {
    throw new Error(`BENCH_OUTBOXES names postgres, drizzle or knex, got ${JSON.stringify(name)}`);
  }
}

/** One outbox under measure: its unit of work, outbox, processed events, and how it writes. */
interface Driver {
  readonly transactions: TransactionManager;
  outbox(): Outbox;
  readonly processedEvents: ProcessedEvents;
  /** Records an effect in the unit of work under way. */
  insertEffect(n: number): Promise<void>;
  close(): Promise<void>;
}

const Booked = defineIntegrationEvent({
  type: "bench.appointment.booked",
  version: 1,
  payload: z.object({ n: z.number().int() }),
});

/** Publishes `count` events in one transaction (the backlog), or one (a booking). */
class Book extends Command<void> {
  constructor(readonly first: number, readonly count: number) {
    super(systemActor);
  }
}

/** What the handlers tell the bench. */
const seen = {
  count: 0,
  onEvent: undefined as ((n: number) => void) | undefined,
  committedAt: new Map<number, number>(),
};

@Handles(Book)
class BookHandler {
  constructor(private readonly events: EventPublisher) {}
  async handle(command: Book, context: HandlerContext): Promise<void> {
    for (let n = command.first; n < command.first + command.count; n++) {
      await this.events.publish(Booked, { n });
    }
    if (command.count === 1) {
      context.unitOfWork?.whenCommitted(() =>
        seen.committedAt.set(command.first, performance.now())
      );
    }
  }
}

function trivial(name: string): AnyClass {
  @HandlesEvent(Booked, { name })
  class Trivial {
    handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
      seen.count++;
      seen.onEvent?.(event.payload.n);
      return Promise.resolve();
    }
  }
  return Trivial;
}

const Effects = token<Driver>("BenchEffects");

@HandlesEvent(Booked, { name: "bench.record-once" })
class RecordOnce {
  constructor(private readonly processed: ProcessedEvents, private readonly effects: Driver) {}
  async handle(event: IntegrationEvent<{ n: number }>): Promise<void> {
    await processOnce(this.processed, "bench.record-once", event, async () => {
      await this.effects.insertEffect(event.payload.n);
    });
    seen.count++;
    seen.onEvent?.(event.payload.n);
  }
}

const database = `kit_bench_outbox_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${database}`);
const benchUrl = new URL(url);
benchUrl.pathname = `/${database}`;
const sql = postgres(benchUrl.href, { max: 10, onnotice: () => {} });
const rows: [string, string][] = [];
let driver!: Driver;

try {
  await migrateKernel(sql);
  await sql`create table bench_effects (n integer not null)`;
  for (const name of outboxNames) {
    driver = await open(name);
    const of = outboxNames.length === 1 ? "" : ` (${name})`;
    try {
      // Warm-up, not measured: compiled code, connections and prepared statements, as later phases.
      await drain("warm-up", [trivial("bench.count-one")], undefined, undefined, 2_000);
      rows.push(
        await drain("backlog of " + fmt(backlog) + " events, 1 trivial handler" + of, [
          trivial("bench.count-one"),
        ]),
      );
      rows.push(
        await drain("backlog of " + fmt(backlog) + " events, 3 trivial handlers" + of, [
          trivial("bench.count-one"),
          trivial("bench.count-two"),
          trivial("bench.count-three"),
        ]),
      );
      rows.push(
        await drain("backlog of " + fmt(backlog) + " events, 1 handler with processOnce" + of, [
          RecordOnce,
        ], new Map([[RecordOnce, [ProcessedEvents, Effects]]])),
      );
      rows.push(
        await drain(
          "backlog of " + fmt(backlog) +
            " events, 1 handler with processOnce, handlerConcurrency 4" + of,
          [RecordOnce],
          new Map([[RecordOnce, [ProcessedEvents, Effects]]]),
          { handlerConcurrency: 4 },
        ),
      );
      rows.push(...(await steady()).map(([n, v]): [string, string] => [n + of, v]));
    } finally {
      await driver.close();
    }
  }
  console.log(
    `\nkit outbox relay on PostgreSQL, ${navigator.hardwareConcurrency} cores, pool of 10 connections`,
  );
  console.log(["| measure | result |", "| --- | --- |", ...rows.map(([n, v]) => `| ${n} | ${v} |`)]
    .join("\n"));
} finally {
  await sql.end({ timeout: 5 });
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.end({ timeout: 5 });
}

/** The outbox of this name on the bench's database. */
async function open(name: string): Promise<Driver> {
  if (name === "drizzle") {
    // Drizzle changes its client's date parsers: a client of its own.
    const client = postgres(benchUrl.href, { max: 10, onnotice: () => {} });
    const db = drizzle(client as never);
    await createKernelTables(db, "public");
    return {
      transactions: new DrizzleTransactions(db),
      outbox: () => new DrizzleOutbox(db),
      processedEvents: new DrizzleProcessedEvents(db),
      insertEffect: async (n) => {
        await currentDrizzle(db).execute(dsql`insert into bench_effects (n) values (${n})`);
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  if (name === "knex") {
    const db = knex({ client: "pg", connection: benchUrl.href, pool: { min: 0, max: 10 } });
    await createKnexKernelTables(db, "public");
    return {
      transactions: new KnexTransactions(db),
      outbox: () => new KnexOutbox(db),
      processedEvents: new KnexProcessedEvents(db),
      insertEffect: async (n) => {
        await currentKnex(db)("bench_effects").insert({ n });
      },
      close: () => db.destroy(),
    };
  }
  return {
    transactions: new PostgresTransactions(sql),
    outbox: () => new PostgresOutbox(sql),
    processedEvents: new PostgresProcessedEvents(),
    insertEffect: async (n) => {
      await currentSql(sql)`insert into bench_effects (n) values (${n})`;
    },
    close: () => Promise.resolve(),
  };
}

function compose(
  handlers: AnyClass[],
  dependencies = new Map<AnyClass, readonly Injectable[]>(),
  settings: Record<string, number> = {},
) {
  return composeApplication({
    modules: [
      defineModule("bench", {
        declarations: [BookHandler, ...handlers],
        dependencies: new Map<AnyClass, readonly Injectable[]>([
          [BookHandler, [EventPublisher]],
          ...dependencies,
        ]),
      }),
    ],
    providers: [{ provide: Effects, provider: { useValue: driver } }],
    transactions: driver.transactions,
    errorReporter: { report: (error) => console.error(error) },
    plugins: {
      events: eventsPlugin({
        outbox: driver.outbox(),
        processedEvents: driver.processedEvents,
        start: true,
        ...settings,
      }),
    },
  });
}

async function reset(): Promise<void> {
  await sql`truncate kit_outbox, kit_outbox_deliveries, kit_processed_events, bench_effects`;
  seen.count = 0;
  seen.onEvent = undefined;
  seen.committedAt.clear();
}

/** Appends the backlog with the relay stopped, then starts it and times the drain. */
async function drain(
  title: string,
  handlers: AnyClass[],
  dependencies?: Map<AnyClass, readonly Injectable[]>,
  settings?: Record<string, number>,
  events = backlog,
): Promise<[string, string]> {
  await reset();
  const app = compose(handlers, dependencies, settings);
  for (let first = 0; first < events; first += 500) {
    await app.commands.execute(new Book(first, Math.min(500, events - first)));
  }
  const expected = events * handlers.length;
  const done = Promise.withResolvers<void>();
  seen.onEvent = () => {
    if (seen.count >= expected) done.resolve();
  };
  const start = performance.now();
  await app.start();
  const timer = setTimeout(done.resolve, drainDeadlineMs);
  await done.promise;
  clearTimeout(timer);
  const elapsed = performance.now() - start;
  await app.stop();
  const delivered = seen.count;
  const perSecond = Math.round(delivered / (elapsed / 1000));
  const outcome = delivered >= expected
    ? `${fmt(perSecond)} deliveries/s (${fmt(expected)} in ${(elapsed / 1000).toFixed(2)} s)`
    : `${fmt(perSecond)} deliveries/s (only ${fmt(delivered)} of ${fmt(expected)} within the ${
      drainDeadlineMs / 1000
    } s deadline)`;
  return [title, outcome];
}

/** Commits `rate` bookings a second, one event each, while the relay runs; lag = seen - commit. */
async function steady(): Promise<[string, string][]> {
  await reset();
  const app = compose([trivial("bench.count-one")]);
  await app.start();
  const total = rate * seconds;
  const lags: number[] = [];
  const allSeen = Promise.withResolvers<void>();
  seen.onEvent = (n) => {
    const committed = seen.committedAt.get(n);
    if (committed !== undefined) lags.push(performance.now() - committed);
    if (seen.count >= total) allSeen.resolve();
  };
  const start = performance.now();
  const pending: Promise<void>[] = [];
  let late = 0;
  for (let n = 0; n < total; n++) {
    const at = start + (n * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else if (wait < -50) late++;
    pending.push(app.commands.execute(new Book(n, 1)));
  }
  await Promise.all(pending);
  const appendSeconds = (performance.now() - start) / 1000;
  const timer = setTimeout(allSeen.resolve, 10_000);
  await allSeen.promise;
  clearTimeout(timer);
  await app.stop();
  lags.sort((a, b) => a - b);
  const pct = (q: number) =>
    lags.length === 0 ? "n/a" : `${
      lags[Math.min(lags.length - 1, Math.floor(lags.length * q))]!
        .toFixed(0)
    } ms`;
  const load = `${rate} events/s for ${seconds} s`;
  return [
    [
      `steady load (${load}): appended`,
      `${fmt(total)} in ${appendSeconds.toFixed(2)} s${
        late > 0 ? ` (${late} commits started over 50 ms late)` : ""
      }`,
    ],
    [
      `steady load (${load}): delivered within 10 s after the last commit`,
      `${fmt(seen.count)} of ${fmt(total)}`,
    ],
    [`steady load (${load}): lag p50 (commit to handler)`, pct(0.5)],
    [`steady load (${load}): lag p99`, pct(0.99)],
    [`steady load (${load}): lag max`, pct(1)],
  ];
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}
