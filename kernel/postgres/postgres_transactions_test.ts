import assert from "node:assert/strict";
import { pgTest } from "../../test_support/services.ts";
import {
  Command,
  CommandBus,
  composeApplication,
  defineModule,
  type HandlerContext,
  Handles,
  type Injectable,
  systemActor,
  token,
} from "../mod.ts";
import { currentSql, PostgresTransactions, transactionOf } from "../postgres.ts";
import type postgres from "postgres";

const Db = token<postgres.Sql>("Db");

class AddNote extends Command<void> {
  constructor(readonly text: string, readonly fail = false) {
    super(systemActor);
  }
}

class AddTwoNotes extends Command<void> {
  constructor(readonly fail: boolean) {
    super(systemActor);
  }
}

function notesModule(committed: string[]) {
  @Handles(AddNote)
  class AddNoteHandler {
    constructor(private readonly sql: postgres.Sql) {}
    async handle(command: AddNote, context: HandlerContext): Promise<void> {
      assert.ok(transactionOf(context.unitOfWork) !== undefined);
      await currentSql(this.sql)`insert into notes (text) values (${command.text})`;
      context.unitOfWork?.whenCommitted(() => void committed.push(command.text));
      if (command.fail) throw new Error(`refused ${command.text}`);
    }
  }
  @Handles(AddTwoNotes)
  class AddTwoNotesHandler {
    constructor(private readonly commands: CommandBus) {}
    async handle(command: AddTwoNotes): Promise<void> {
      await this.commands.execute(new AddNote("first"));
      await this.commands.execute(new AddNote("second", command.fail));
    }
  }
  return defineModule("notes", {
    declarations: [AddNoteHandler, AddTwoNotesHandler],
    dependencies: new Map<abstract new (...args: never[]) => unknown, readonly Injectable[]>([
      [AddNoteHandler, [Db]],
      [AddTwoNotesHandler, [CommandBus]],
    ]),
  });
}

pgTest(
  "PostgresTransactions commits a command's writes and then runs whenCommitted",
  async ({ sql }) => {
    await sql`create table notes (text text not null)`;
    const committed: string[] = [];
    const app = composeApplication({
      modules: [notesModule(committed)],
      providers: [{ provide: Db, provider: { useValue: sql } }],
      transactions: new PostgresTransactions(sql),
    });
    await app.commands.execute(new AddNote("kept"));
    assert.deepEqual((await sql`select text from notes`).map((r) => r.text), ["kept"]);
    assert.deepEqual(committed, ["kept"]);
  },
);

pgTest(
  "A rolled-back Postgres unit of work leaves no row and runs no whenCommitted",
  async ({ sql }) => {
    await sql`create table notes (text text not null)`;
    const committed: string[] = [];
    const app = composeApplication({
      modules: [notesModule(committed)],
      providers: [{ provide: Db, provider: { useValue: sql } }],
      transactions: new PostgresTransactions(sql),
    });
    await assert.rejects(() => app.commands.execute(new AddNote("lost", true)), /refused lost/);
    assert.equal((await sql`select count(*)::int as n from notes`)[0]!.n, 0);
    assert.deepEqual(committed, []);
  },
);

pgTest(
  "Nested commands share one Postgres transaction: one failure rolls back both",
  async ({ sql }) => {
    await sql`create table notes (text text not null)`;
    const committed: string[] = [];
    const app = composeApplication({
      modules: [notesModule(committed)],
      providers: [{ provide: Db, provider: { useValue: sql } }],
      transactions: new PostgresTransactions(sql),
    });
    await assert.rejects(() => app.commands.execute(new AddTwoNotes(true)), /refused second/);
    assert.equal((await sql`select count(*)::int as n from notes`)[0]!.n, 0);
    assert.deepEqual(committed, []);
    await app.commands.execute(new AddTwoNotes(false));
    assert.deepEqual((await sql`select text from notes order by text`).map((r) => r.text), [
      "first",
      "second",
    ]);
    assert.deepEqual(committed, ["first", "second"]);
  },
);

pgTest("currentSql answers the client outside a unit of work", async ({ sql }) => {
  assert.equal(currentSql(sql), sql);
  assert.equal((await currentSql(sql)`select 1 as one`)[0]!.one, 1);
  assert.equal(transactionOf(undefined), undefined);
});
