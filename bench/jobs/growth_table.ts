/**
 * The growth table of `bench/jobs/growth.ts` (issue #35): its rows (each size of finished jobs,
 * then the same after retention's prune), its columns, the finished jobs the fill writes and the
 * counts it claims to write. Pure: the harness check (`growth_test.ts`) tests it without a timing.
 *
 * @module
 */

/** The queues of the finished jobs, and of the dashboard's narrowed pages. */
export const growthQueues = ["scheduling", "notifications", "analytics", "identity"] as const;

/** A finished status the fill writes. */
export type FilledStatus = "succeeded" | "cancelled" | "dead";

/**
 * The status of the fill's job `n` (1-based): of each 20 consecutive jobs of a queue, 18
 * succeeded, 1 cancelled, 1 dead (with an error code).
 */
export function filledStatus(n: number): FilledStatus {
  const k = Math.floor(n / growthQueues.length) % 20;
  return k === 0 ? "dead" : k === 1 ? "cancelled" : "succeeded";
}

/** The queue of the fill's job `n`. */
export function filledQueue(n: number): string {
  return growthQueues[n % growthQueues.length]!;
}

/**
 * What the fill of jobs `from`..`to` writes: finished jobs of tenant `t1`, over
 * {@linkcode growthQueues}, statuses by {@linkcode filledStatus}, names `<queue>.job-<n % 7>`,
 * subjects `calendar-<n % 1000>`, error codes `CODE_<n / 80 % 5>` on the dead ones, created `n` ms
 * after `$1` and finished a second later. One `insert … select … from generate_series`.
 *
 * @param from The first job's number (1-based).
 * @param to The last job's number.
 * @returns The statement; its one parameter (`$1`) is the first creation time.
 */
export function finishedFillSql(from: number, to: number): string {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
    throw new RangeError(`A fill is of jobs 1 <= from <= to, got ${from}..${to}`);
  }
  const queues = growthQueues.map((q) => `'${q}'`).join(",");
  const k = `((n / ${growthQueues.length}) % 20)`;
  return `insert into background_jobs (id, name, queue, payload, actor, tenant_id, correlation_id,
       subject, status, attempts, max_attempts, run_at, created_at, finished_at, last_error_code,
       last_error_message, last_error_at, progress_done, progress_total)
     select gen_random_uuid()::text,
       (array[${queues}])[1 + n % ${growthQueues.length}] || '.job-' || (n % 7),
       (array[${queues}])[1 + n % ${growthQueues.length}],
       '{"n":1}'::jsonb,
       '{"kind":"system","id":"system","roles":[],"tenants":[],"attributes":{}}'::jsonb,
       't1', 'growth', 'calendar-' || (n % 1000),
       case when ${k} = 0 then 'dead' when ${k} = 1 then 'cancelled' else 'succeeded' end,
       case when ${k} = 0 then 3 else 1 end, 3,
       $1::timestamptz + (n || ' ms')::interval,
       $1::timestamptz + (n || ' ms')::interval,
       $1::timestamptz + (n || ' ms')::interval + interval '1 second',
       case when ${k} = 0 then 'CODE_' || ((n / 80) % 5) end,
       case when ${k} = 0 then 'failed for the benchmark' end,
       case when ${k} = 0 then $1::timestamptz + (n || ' ms')::interval + interval '1 second' end,
       10, 10
     from generate_series(${from}, ${to}) n`;
}

/** The jobs the fill of jobs 1..`total` writes, by queue and status. */
export function expectedFill(total: number): Map<string, Record<FilledStatus, number>> {
  const counts = new Map<string, Record<FilledStatus, number>>(
    growthQueues.map((q) => [q, { succeeded: 0, cancelled: 0, dead: 0 }]),
  );
  for (let n = 1; n <= total; n++) counts.get(filledQueue(n))![filledStatus(n)]++;
  return counts;
}

/** A column of the growth table: its key in a row's figures, and its title. */
export interface GrowthColumn {
  readonly key: string;
  readonly title: string;
}

/**
 * The dashboard's pages the table measures: each a column, with the path under the dashboard's
 * prefix (`{after}`: the cursor of page 20; `{id}`: a finished job's id).
 */
export const growthPages: readonly (GrowthColumn & { readonly path: string })[] = [
  { key: "counts", title: "queue counts", path: "/queues" },
  { key: "activity", title: "activity (1 h)", path: "/activity" },
  { key: "first", title: "first page", path: "/jobs" },
  { key: "queueStatus", title: "queue + status", path: "/jobs?queue=analytics&status=dead" },
  { key: "name", title: "name search", path: "/jobs?name=identity.job-3" },
  { key: "subject", title: "subject search", path: "/jobs?subject=calendar-80" },
  { key: "errorCode", title: "error code search", path: "/jobs?errorCode=CODE_4" },
  { key: "noMatch", title: "search, no match", path: "/jobs?subject=no-such-subject" },
  { key: "page20", title: "page 20 (cursor)", path: "/jobs?after={after}" },
  { key: "job", title: "one job", path: "/jobs/{id}" },
];

/** Every column of the growth table, in order. */
export const growthColumns: readonly GrowthColumn[] = [
  { key: "kept", title: "rows kept" },
  { key: "tableMb", title: "table MB" },
  { key: "claim", title: "claim + complete jobs/s" },
  { key: "enqueue", title: "enqueue jobs/s" },
  ...growthPages.map(({ key, title }) => ({ key, title: `${title} p50 / p99 ms` })),
];

/** The rows of the table for these sizes: each size, then the same after retention's prune. */
export function growthRows(sizes: readonly number[]): string[] {
  return sizes.flatMap((size) => {
    const n = size.toLocaleString("en-US");
    return [`${n} finished`, `${n} finished, after retention's prune + vacuum`];
  });
}

/**
 * The markdown table: a row per {@linkcode growthRows} label, a cell per
 * {@linkcode growthColumns} key.
 *
 * @throws {Error} When a row or a cell is missing, naming it (a table never misses a figure).
 */
export function renderGrowthTable(
  sizes: readonly number[],
  figures: ReadonlyMap<string, Readonly<Record<string, string>>>,
): string {
  const lines = [
    `| table | ${growthColumns.map((c) => c.title).join(" | ")} |`,
    `| --- | ${growthColumns.map(() => "---:").join(" | ")} |`,
  ];
  for (const label of growthRows(sizes)) {
    const row = figures.get(label);
    if (row === undefined) throw new Error(`The growth table has no row '${label}'`);
    const cells = growthColumns.map((column) => {
      const cell = row[column.key];
      if (cell === undefined || cell === "") {
        throw new Error(`The growth table's row '${label}' has no '${column.title}'`);
      }
      return cell;
    });
    lines.push(`| ${label} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}
