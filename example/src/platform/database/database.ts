import { type Token, token } from "@kit/kernel";
import postgres from "postgres";

/** The application's PostgreSQL client (postgres.js); repositories write through the unit of work. */
export type Database = postgres.Sql;

/** The token of the application's database client. */
export const Database: Token<Database> = token<Database>("Database");

/** Opens the client of the database at `url` (a pool of `max` connections). */
export function connectDatabase(url: string, options: { max?: number } = {}): Database {
  return postgres(url, { max: options.max ?? 10, onnotice: () => {} });
}
