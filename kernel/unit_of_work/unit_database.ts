import type { SqlStatement } from "../postgres/sql_statement.ts";
import { clientOfUnit } from "./unit_client.ts";
import type { UnitOfWork } from "./unit_of_work.ts";

/** Runs a statement and answers its rows as objects (any driver: postgres.js, Drizzle, Knex). */
export type UnitDatabaseQuery = (
  statement: SqlStatement,
) => Promise<readonly Readonly<Record<string, unknown>>[]>;

/**
 * A store (a job store, an outbox) that writes in units of work, as the check sees it: its client,
 * a query on that client, and its names for the refusal.
 */
export interface UnitDatabaseWriter {
  /** The store's name in the refusal (`PostgresOutbox`). */
  readonly storeName: string;
  /** The transaction manager to compose the application with, named in the refusal. */
  readonly transactionsName: string;
  /**
   * The client the store's statements run on (the `postgres.Sql`, the Drizzle client, the Knex
   * instance), as a transaction manager records it for its units (`recordUnitClient`). A writer
   * without one (JavaScript) is checked as a client of its own.
   */
  readonly client?: object;
  /** Runs a statement on the client, outside any unit of work. */
  readonly query: UnitDatabaseQuery;
}

/**
 * Which database a connection reaches: its name, its oid, and the cluster's system identifier
 * (`pg_control_system()`, callable by any role), which is the same by every route to the cluster
 * (socket, TCP, a pooler) and differs between clusters made by separate `initdb`s.
 */
interface DatabaseIdentity {
  readonly name: string;
  readonly oid: string;
  readonly cluster: string;
}

const identityStatement: SqlStatement = {
  name: "databaseIdentity",
  text: `select current_database()::text as name,
  (select oid::int8::text from pg_database where datname = current_database()) as oid,
  (select system_identifier::text from pg_control_system()) as cluster`,
  params: [],
};

/** The database of each writer's client, asked once (forgotten when asking fails). */
const writerDatabases = new WeakMap<object, Promise<DatabaseIdentity>>();

/**
 * The writer clients found on the database of a unit's client (or of a unit's transaction, when
 * its client is not known). Only a verdict of "the same database" is kept: a unit on another
 * database is refused every time.
 */
const verified = new WeakMap<object, WeakSet<object>>();

/**
 * Whether the writer may write in the unit without a check: the unit was opened on the writer's
 * own client, or that pair of clients (or the unit's transaction, when its client is not known)
 * was found on one database before. Costs two `WeakMap` lookups at most.
 *
 * @param writer The store that is to write in the unit.
 * @param unit The unit of work.
 * @returns `true` when no check is needed; else call {@linkcode checkUnitDatabase} first.
 */
export function isOnUnitDatabase(writer: UnitDatabaseWriter, unit: UnitOfWork): boolean {
  const unitClient = clientOfUnit(unit);
  if (unitClient !== undefined && unitClient === writer.client) return true;
  const key = unitClient ?? unit.transaction;
  return isObject(key) && verified.get(key)?.has(writer.client ?? writer) === true;
}

/**
 * Checks that the unit's transaction is on the writer's database, before the writer's first
 * statement in it: asks the database of the unit's transaction (`inUnit`) and that of the
 * writer's client (once per client) at once, and keeps a verdict of "the same database" for the
 * pair of clients ({@linkcode isOnUnitDatabase} answers it from then on). On another database it
 * rejects with an error naming the writer and both databases: the writer sends nothing more, and
 * the unit rolls back when the error ends it.
 *
 * @param writer The store that is to write in the unit.
 * @param unit The unit of work.
 * @param inUnit A query on the unit's transaction.
 * @returns Resolves when the unit is on the writer's database.
 */
export async function checkUnitDatabase(
  writer: UnitDatabaseWriter,
  unit: UnitOfWork,
  inUnit: UnitDatabaseQuery,
): Promise<void> {
  const writerClient = writer.client ?? writer;
  const key = clientOfUnit(unit) ?? unit.transaction;
  const [store, unitDatabase] = await Promise.all([
    writerDatabase(writer, writerClient),
    identityOn(inUnit),
  ]);
  if (
    store.name !== unitDatabase.name || store.oid !== unitDatabase.oid ||
    store.cluster !== unitDatabase.cluster
  ) {
    throw new Error(refusal(writer, store, unitDatabase));
  }
  if (!isObject(key)) return;
  let clients = verified.get(key);
  if (clients === undefined) verified.set(key, clients = new WeakSet());
  clients.add(writerClient);
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

function writerDatabase(writer: UnitDatabaseWriter, client: object): Promise<DatabaseIdentity> {
  let identity = writerDatabases.get(client);
  if (identity === undefined) {
    identity = identityOn(writer.query);
    writerDatabases.set(client, identity);
    identity.catch(() => writerDatabases.delete(client));
  }
  return identity;
}

async function identityOn(query: UnitDatabaseQuery): Promise<DatabaseIdentity> {
  const [row] = await query(identityStatement);
  return { name: text(row, "name"), oid: text(row, "oid"), cluster: text(row, "cluster") };
}

function text(row: Readonly<Record<string, unknown>> | undefined, column: string): string {
  const value = row?.[column];
  if (typeof value === "string") return value;
  const shown = value === undefined ? "no such column" : `got ${JSON.stringify(value)}`;
  throw new TypeError(
    `The row of '${identityStatement.name}' has a '${column}' that is not text: ${shown}`,
  );
}

function refusal(
  writer: UnitDatabaseWriter,
  store: DatabaseIdentity,
  unit: DatabaseIdentity,
): string {
  const { storeName, transactionsName } = writer;
  const [storeDb, unitDb] = store.name === unit.name
    ? [detailed(store), detailed(unit)]
    : [`"${store.name}"`, `"${unit.name}"`];
  return `${storeName} was made on a client of database ${storeDb}, but the unit of work it ` +
    `was to write in is on database ${unitDb} (a ${transactionsName} on another client): what ` +
    `it wrote there would be kept in ${unitDb}, while ${storeName} reads ${storeDb}. ` +
    `${storeName} wrote nothing. Make the store on a client of the application's database (the ` +
    `one ${transactionsName} opens its units on), or give database ${storeDb} an application of ` +
    `its own (docs/operations/beyond-one-database.md, "A queue per database")`;
}

function detailed(database: DatabaseIdentity): string {
  return `"${database.name}" (cluster ${database.cluster}, oid ${database.oid})`;
}
