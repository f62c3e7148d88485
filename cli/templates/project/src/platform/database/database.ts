import { type Duration, type Token, token } from "@kit/kernel";
import { postgresClientOptions, type PostgresClientSettings } from "@kit/kernel/postgres";
import postgres from "postgres";
import project from "../../../kit.config.json" with { type: "json" };

/** The platform's PostgreSQL client (postgres.js); repositories write through the unit of work. */
export type Database = postgres.Sql;

/** The token of the platform's database client, for the adapters that inject it. */
export const Database: Token<Database> = token<Database>("Database");

/**
 * Opens the client of the database at `url` with kit's time-outs (`postgresClientOptions`: a
 * pool of 10, connect and acquire time-outs of 5 s, a statement time-out of 15 s), over which the
 * settings given win. An outage then answers 503 within seconds, and the pool connects again by
 * itself once the server is back.
 */
export function connectDatabase(url: string, settings: PostgresClientSettings = {}): Database {
  return postgres(url, {
    ...postgresClientOptions({
      ...settings,
      connection: { application_name: project.name, ...settings.connection },
    }),
    onnotice: () => {},
  });
}

/**
 * Opens a client for migrations: one connection, no statement time-out (a migration may take
 * long, and waits for another process's migration to finish).
 */
export function connectForMigrations(url: string): Database {
  return connectDatabase(url, { max: 1, statementTimeout: 0, acquireTimeout: "1h" });
}

const variables = {
  DATABASE_POOL_SIZE: "max",
  DATABASE_CONNECT_TIMEOUT: "connectTimeout",
  DATABASE_ACQUIRE_TIMEOUT: "acquireTimeout",
  DATABASE_STATEMENT_TIMEOUT: "statementTimeout",
  DATABASE_QUERY_TIMEOUT: "queryTimeout",
} as const;

/**
 * The database settings an operator gives in the environment: `DATABASE_POOL_SIZE` (a number),
 * `DATABASE_CONNECT_TIMEOUT`, `DATABASE_ACQUIRE_TIMEOUT`, `DATABASE_STATEMENT_TIMEOUT` and
 * `DATABASE_QUERY_TIMEOUT` (durations with a unit: `500ms`, `5s`, `1m`; `0` for none). Unset:
 * kit's defaults. A value that is not one throws, naming the variable.
 */
export function databaseSettingsFromEnv(
  env: Readonly<Record<string, unknown>>,
): PostgresClientSettings {
  const settings: Record<string, number | Duration> = {};
  for (const [variable, setting] of Object.entries(variables)) {
    const given = env[variable];
    const value = typeof given === "string" ? given.trim() : undefined;
    if (value === undefined || value === "") continue;
    if (setting === "max") {
      const size = Number(value);
      if (!Number.isInteger(size) || size < 1) {
        throw new Error(`${variable} must be a whole number of connections, got '${value}'`);
      }
      settings.max = size;
    } else if (value === "0") {
      settings[setting] = 0;
    } else if (/^\d+(\.\d+)?(ms|s|m|h)$/.test(value)) {
      settings[setting] = value as Duration;
    } else {
      throw new Error(
        `${variable} must be a duration such as 500ms, 5s or 1m, got '${value}'`,
      );
    }
  }
  // Validated here, so that a wrong value stops the start with the variable's name.
  try {
    postgresClientOptions(settings);
  } catch (error) {
    throw new Error(`The database settings of the environment are wrong: ${error}`);
  }
  return settings;
}
