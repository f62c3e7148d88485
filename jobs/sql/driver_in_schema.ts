import type { JobSqlDriver, SqlQuery } from "./job_sql_driver.ts";

/**
 * The driver whose statements name their tables in `schema`: each statement's text rewritten by
 * `qualify` before it is sent (in and outside a unit of work). Shared by the job store and the
 * outbox over a {@link JobSqlDriver}.
 *
 * @param what What the schema is for, to name it in the refusal ("A job store's").
 * @throws {TypeError} When `schema` is not a plain identifier (letters, digits, _).
 */
export function driverInSchema(
  driver: JobSqlDriver,
  schema: string,
  what: string,
  qualify: (text: string, quotedSchema: string) => string,
): JobSqlDriver {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) {
    throw new TypeError(
      `${what} schema is a plain identifier (letters, digits, _), got ${JSON.stringify(schema)}`,
    );
  }
  const quoted = `"${schema}"`;
  const qualified = (query: SqlQuery): SqlQuery => (statement) =>
    query({ ...statement, text: qualify(statement.text, quoted) });
  return {
    ...driver,
    query: qualified(driver.query),
    inUnit: (unit) => {
      const query = driver.inUnit(unit);
      return query === undefined ? undefined : qualified(query);
    },
  };
}
