import { clientOfUnit, type UnitOfWork } from "@kit/kernel/internal";
import type { JobSqlDriver, SqlQuery } from "./job_sql_driver.ts";
import { JobRowReader } from "./job_rows.ts";

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

const identityStatement = {
  name: "databaseIdentity",
  text: `select current_database()::text as name,
  (select oid::int8::text from pg_database where datname = current_database()) as oid,
  (select system_identifier::text from pg_control_system()) as cluster`,
  params: [] as const,
};

/** The database of each store's client, asked once (forgotten when asking fails). */
const storeDatabases = new WeakMap<object, Promise<DatabaseIdentity>>();

/**
 * The store clients found on the database of a unit's client (or of a unit's transaction, when
 * its client is not known). Only a verdict of "the same database" is kept: a unit on another
 * database is refused every time.
 */
const verified = new WeakMap<object, WeakSet<object>>();

/**
 * The query a store writes in a unit of work with: `query` itself (the driver's, on the unit's
 * transaction) when the unit was opened on the driver's own client, or when that pair of clients
 * was found on one database before; else `query` behind a check, run once before its first
 * statement: the database of the unit's transaction and that of the driver's client (one
 * statement on each, at once) must be the same. When they differ, every statement of the query
 * rejects with an error naming the store and both databases, and none is sent: the write never
 * reaches the unit's transaction, and the unit rolls back when the error ends it.
 *
 * @param driver The store's driver (its `client`, its names for the error).
 * @param unit The unit of work the store writes in.
 * @param query The driver's query on the unit's transaction (`driver.inUnit(unit)`).
 * @returns The query to write in the unit with.
 */
export function queryInUnit(driver: JobSqlDriver, unit: UnitOfWork, query: SqlQuery): SqlQuery {
  const unitClient = clientOfUnit(unit);
  if (unitClient !== undefined && unitClient === driver.client) return query;
  // A driver made without its client (JavaScript) is checked as a client of its own.
  const storeClient: object = driver.client ?? driver;
  const key = unitClient ?? unit.transaction;
  if (verified.get(key as object)?.has(storeClient)) return query;
  let checked: Promise<void> | undefined;
  return async (statement) => {
    await (checked ??= check(driver, storeClient, key, query));
    return await query(statement);
  };
}

async function check(
  driver: JobSqlDriver,
  storeClient: object,
  key: unknown,
  inUnit: SqlQuery,
): Promise<void> {
  const [store, unit] = await Promise.all([
    storeDatabase(driver, storeClient),
    identityOn(inUnit),
  ]);
  if (store.name !== unit.name || store.oid !== unit.oid || store.cluster !== unit.cluster) {
    throw new Error(refusal(driver, store, unit));
  }
  if (!isObject(key)) return;
  let clients = verified.get(key);
  if (clients === undefined) verified.set(key, clients = new WeakSet());
  clients.add(storeClient);
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

function storeDatabase(driver: JobSqlDriver, storeClient: object): Promise<DatabaseIdentity> {
  let identity = storeDatabases.get(storeClient);
  if (identity === undefined) {
    identity = identityOn(driver.query);
    storeDatabases.set(storeClient, identity);
    identity.catch(() => storeDatabases.delete(storeClient));
  }
  return identity;
}

async function identityOn(query: SqlQuery): Promise<DatabaseIdentity> {
  const [row] = await query(identityStatement);
  const read = new JobRowReader(row ?? {}, identityStatement.name);
  return { name: read.text("name"), oid: read.text("oid"), cluster: read.text("cluster") };
}

function refusal(driver: JobSqlDriver, store: DatabaseIdentity, unit: DatabaseIdentity): string {
  const { storeName, transactionsName } = driver;
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
