import assert from "node:assert/strict";
import { recordUnitClient, type UnitOfWork } from "@kit/kernel/internal";
import type { JobSqlDriver, SqlQuery } from "./job_sql_driver.ts";
import { queryInUnit } from "./unit_database.ts";

// The check's bookkeeping, on stand-in clients: what is asked, how often, and what is refused.
// The real databases are in test_support/unit_database_cases.ts (each store's test file).

interface Identity {
  name: string;
  oid: string;
  cluster: string;
}

const app: Identity = { name: "app", oid: "16384", cluster: "7001" };

/** A query answering the identity of `database`, logging each statement as `label:name`. */
function on(database: Identity, log: string[], label: string): SqlQuery {
  return (statement) => {
    log.push(`${label}:${statement.name}`);
    return Promise.resolve(statement.name === "databaseIdentity" ? [{ ...database }] : []);
  };
}

function driverOn(client: object, database: Identity, log: string[]): JobSqlDriver {
  return {
    storeName: "TestJobStore",
    transactionsName: "TestTransactions",
    client,
    query: on(database, log, "store"),
    inUnit: () => undefined,
  };
}

/** A unit on a transaction of its own, recorded as opened on `client` when given. */
function unitOn(client?: object): UnitOfWork {
  const transaction = {};
  if (client !== undefined) recordUnitClient(transaction, client);
  return unitWith(transaction);
}

function unitWith(transaction: object): UnitOfWork {
  return { id: "u", transaction, whenCommitted: () => {}, lock: () => Promise.resolve() };
}

const insert = { name: "insertJob", text: "insert", params: [] };

Deno.test("a unit opened on the store's own client is written in with the driver's query, unchecked", async () => {
  const client = {};
  const log: string[] = [];
  const query = on(app, log, "unit");
  assert.equal(queryInUnit(driverOn(client, app, log), unitOn(client), query), query);
  await query(insert);
  assert.deepEqual(log, ["unit:insertJob"]);
});

Deno.test("a unit on another client of the same database is checked once for the pair of clients", async () => {
  const [unitClient, storeClient] = [{}, {}];
  const log: string[] = [];
  const driver = driverOn(storeClient, app, log);
  const query = on(app, log, "unit");
  const checked = queryInUnit(driver, unitOn(unitClient), query);
  assert.notEqual(checked, query);
  await checked(insert);
  await checked(insert);
  assert.deepEqual(log.sort(), [
    "store:databaseIdentity",
    "unit:databaseIdentity",
    "unit:insertJob",
    "unit:insertJob",
  ]);
  // The next unit on that client: the pair is known, the driver's query is answered as it is.
  assert.equal(queryInUnit(driver, unitOn(unitClient), query), query);
});

Deno.test("a unit on another database is refused every time, naming both, and nothing is sent", async () => {
  const log: string[] = [];
  const driver = driverOn({}, { name: "reports", oid: "16390", cluster: "7001" }, log);
  const unit = unitOn({});
  for (let attempt = 0; attempt < 2; attempt++) {
    await assert.rejects(
      () => queryInUnit(driver, unit, on(app, log, "unit"))(insert),
      (error: Error) => {
        assert.match(
          error.message,
          /^TestJobStore was made on a client of database "reports", but the unit of work it was to write in is on database "app" \(a TestTransactions on another client\)/,
        );
        assert.match(error.message, /TestJobStore wrote nothing/);
        assert.match(error.message, /beyond-one-database\.md/);
        return true;
      },
    );
  }
  assert.ok(!log.includes("unit:insertJob"), "the insert was never sent");
  // The store's database is asked once; the unit's, at each attempt.
  assert.deepEqual(log.filter((entry) => entry === "store:databaseIdentity"), [
    "store:databaseIdentity",
  ]);
  assert.equal(log.filter((entry) => entry === "unit:databaseIdentity").length, 2);
});

Deno.test("a database of the same name on another cluster is another database", async () => {
  const driver = driverOn({}, { ...app, cluster: "7002" }, []);
  await assert.rejects(
    () => queryInUnit(driver, unitOn({}), on(app, [], "unit"))(insert),
    /database "app" \(cluster 7002, oid 16384\), but .* is on database "app" \(cluster 7001, oid 16384\)/,
  );
});

Deno.test("a unit whose client is not known is checked once per transaction, nested units included", async () => {
  const log: string[] = [];
  const driver = driverOn({}, app, log);
  const query = on(app, log, "unit");
  const transaction = {};
  await queryInUnit(driver, unitWith(transaction), query)(insert);
  assert.equal(log.filter((entry) => entry === "unit:databaseIdentity").length, 1);
  // A unit nested in it (an outbox's savepoint) hands on its transaction: not asked again.
  assert.equal(queryInUnit(driver, unitWith(transaction), query), query);
  // Another transaction is asked.
  await queryInUnit(driver, unitWith({}), query)(insert);
  assert.equal(log.filter((entry) => entry === "unit:databaseIdentity").length, 2);
  assert.equal(log.filter((entry) => entry === "store:databaseIdentity").length, 1);
});
