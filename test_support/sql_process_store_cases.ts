/**
 * What a process store on an ORM (Drizzle, Knex) does in the ORM's unit of work, beside the
 * process-manager contract: an instance's state and its handled message commit with the command's
 * write in one ORM transaction, or not at all; a unit of another transaction manager is refused,
 * naming the store and the transaction manager to compose with.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  InMemoryTransactions,
  runInScope,
  systemActor,
  type TransactionManager,
} from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import type { ProcessInstance, ProcessStore } from "@kit/kernel/process";
import { ignoreWithout } from "./services.ts";

/**
 * A driver opened on a schema holding `appointments (id text primary key)` and, in the context's
 * schema, the process tables.
 */
export interface OpenedProcessOrm {
  /** The driver's unit of work. */
  readonly transactions: TransactionManager;
  /** The driver's process store, on the context's schema. */
  readonly store: ProcessStore;
  /** The store's name and its transaction manager's, as its refusal names them. */
  readonly names: { readonly store: string; readonly transactions: string };
  /** Inserts an appointment through the ORM (`currentDrizzle`, `currentKnex`), in the unit under way. */
  insertAppointment(id: string): Promise<void>;
  /** How many appointments are kept, read outside any unit. */
  appointments(): Promise<number>;
}

const t0 = new Date("2026-05-01T08:00:00.000Z");
const execution = { origin: "test", actor: systemActor, tenantId: "t1", correlationId: "case" };

/** The command's write, as a repository makes it: in the unit of work under way. */
function insertIn(orm: OpenedProcessOrm, unit: UnitOfWork, id: string): Promise<void> {
  return runInScope({ execution, unitOfWork: unit }, () => orm.insertAppointment(id));
}
const process = "appointments.confirmation";

/** A new instance of the key, at version 0 (not saved yet). */
function started(key: string): ProcessInstance {
  return {
    process,
    tenantId: "t1",
    key,
    status: "active",
    state: { log: ["booked"] },
    version: 0,
    deadlines: {},
    startedAt: t0,
    updatedAt: t0,
  };
}

/**
 * Declares the cases for a driver.
 *
 * @param name The driver's name, for the test titles.
 * @param withOrm Runs a case on the emptied tables.
 */
export function sqlProcessStoreCases(
  name: string,
  withOrm: (fn: (orm: OpenedProcessOrm) => Promise<void>) => Promise<void>,
): void {
  const test = (title: string, fn: (orm: OpenedProcessOrm) => Promise<void>) =>
    Deno.test({
      name: `${name}: ${title}`,
      ignore: ignoreWithout("DATABASE_URL"),
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () => withOrm(fn),
    });

  test("a rolled-back ORM transaction leaves no process state, nor the command's write", async (orm) => {
    const { store } = orm;
    await assert.rejects(
      orm.transactions.run(async (unit) => {
        await insertIn(orm, unit, "a1");
        assert.equal(await store.instanceSave({ instance: started("a1"), unit }), 1);
        assert.equal(
          await store.messageMark({
            process,
            tenantId: "t1",
            key: "a1",
            messageId: "e1",
            kind: "event",
            name: "appointments.appointment.booked",
            now: t0,
            unit,
          }),
          true,
        );
        assert.equal((await store.instanceLoad({ ...ref("a1"), unit }))?.version, 1, "seen inside");
        throw new Error("booking refused");
      }),
      /booking refused/,
    );
    assert.equal(await orm.appointments(), 0);
    assert.equal(await store.instanceRead({ ...ref("a1"), reach: {} }), undefined);
    assert.deepEqual(await store.messageList(ref("a1")), []);
    assert.deepEqual(await store.instanceCount({ reach: {} }), []);
  });

  test("a committed ORM transaction holds the instance and its message with the command's write", async (orm) => {
    const { store } = orm;
    await orm.transactions.run(async (unit) => {
      await store.instanceSave({ instance: started("a2"), unit });
      await store.messageMark({
        process,
        tenantId: "t1",
        key: "a2",
        messageId: "e1",
        kind: "event",
        name: "appointments.appointment.booked",
        now: t0,
        parked: { early: true },
        unit,
      });
      await insertIn(orm, unit, "a2");
    });
    assert.equal(await orm.appointments(), 1);
    const saved = await store.instanceRead({ ...ref("a2"), reach: {} });
    assert.deepEqual(saved, { ...started("a2"), version: 1 });
    assert.deepEqual(
      (await store.messageList(ref("a2"))).map((m) => [m.messageId, m.kind, m.parked]),
      [["e1", "event", true]],
    );
    // The next transition: loaded, saved at its version, its parked event taken, all committed.
    await orm.transactions.run(async (unit) => {
      const loaded = await store.instanceLoad({ ...ref("a2"), unit });
      assert.deepEqual(await store.messageTakeParked({ ...ref("a2"), unit }), [{ early: true }]);
      const next = { ...loaded!, state: { log: ["booked", "confirmed"] }, updatedAt: t0 };
      assert.equal(await store.instanceSave({ instance: next, unit }), 2);
      await assert.rejects(
        store.instanceSave({ instance: next, unit }),
        { code: "CONCURRENT_UPDATE" },
        "a save at the version it was loaded at, again",
      );
    });
    assert.equal((await store.instanceRead({ ...ref("a2"), reach: {} }))?.version, 2);
    assert.deepEqual((await store.messageList(ref("a2"))).map((m) => m.parked), [false]);
  });

  test("a unit of another transaction manager is refused: nothing written outside the ORM transaction", async (orm) => {
    const { store, names } = orm;
    const refusal = new RegExp(
      `${names.store} needs a unit of work of its driver to save an instance of '${process}': compose the application with ${names.transactions}`,
    );
    await assert.rejects(
      new InMemoryTransactions().run((unit) =>
        store.instanceSave({ instance: started("a3"), unit })
      ),
      refusal,
    );
    await assert.rejects(
      new InMemoryTransactions().run((unit) => store.instanceLoad({ ...ref("a3"), unit })),
      new RegExp(`${names.store} needs a unit of work of its driver to load an instance`),
    );
    assert.equal(await store.instanceRead({ ...ref("a3"), reach: {} }), undefined);
  });
}

function ref(key: string) {
  return { process, tenantId: "t1", key };
}
