/**
 * Gates tests that need a real service. With the variable set, the test runs. Without it, the
 * test is skipped (one line printed, naming the variable) — except under CI (`CI=true`), where
 * the test runs and fails with a message naming the variable.
 *
 * Not published: tests import it by relative path.
 */
import postgres from "postgres";

const printed = new Set<string>();

/** The URL of a service from its variable, or undefined; decides skip or fail. */
export function serviceUrl(variable: "DATABASE_URL" | "REDIS_URL"): string | undefined {
  const value = Deno.env.get(variable);
  if (value) return value;
  if (Deno.env.get("CI") === "true") return undefined;
  if (!printed.has(variable)) {
    printed.add(variable);
    console.log(`skipped: tests needing ${variable} (set ${variable} to run them)`);
  }
  return undefined;
}

/** Whether tests needing the variable are to be ignored (missing and not under CI). */
export function ignoreWithout(variable: "DATABASE_URL" | "REDIS_URL"): boolean {
  return serviceUrl(variable) === undefined && Deno.env.get("CI") !== "true";
}

/** The variable's value, or an error naming it (for tests that run under CI without it). */
export function requireUrl(variable: "DATABASE_URL" | "REDIS_URL"): string {
  const value = Deno.env.get(variable);
  if (!value) throw new Error(`${variable} is not set: this test needs a real service`);
  return value;
}

/** A postgres.js client on a fresh schema of its own; the schema is dropped afterwards. */
export interface TestDatabase {
  /** The client, whose search_path is the test schema. */
  readonly sql: postgres.Sql;
  /** The name of the test schema. */
  readonly schema: string;
  /** The URL of the database. */
  readonly url: string;
}

/**
 * Runs `fn` against a new schema with a random name, then drops it. Each test gets its own, so
 * runs never collide.
 */
export async function withTestDatabase(
  fn: (db: TestDatabase) => Promise<void>,
  options: { max?: number } = {},
): Promise<void> {
  const url = requireUrl("DATABASE_URL");
  const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema ${schema}`);
  const sql = postgres(url, {
    max: options.max ?? 4,
    onnotice: () => {},
    connection: { search_path: schema },
  });
  try {
    await fn({ sql, schema, url });
  } finally {
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop schema ${schema} cascade`);
    await admin.end({ timeout: 5 });
  }
}

/**
 * Declares a Deno test that needs Postgres: skipped without DATABASE_URL (fails under CI).
 */
export function pgTest(name: string, fn: (db: TestDatabase) => Promise<void>): void {
  Deno.test({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withTestDatabase(fn),
  });
}
