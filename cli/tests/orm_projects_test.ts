/**
 * A project on each ORM (`kit init --orm drizzle`, `--orm knex`) with no hand-written line of
 * source: `kit init` through the real executable, then through the same `main` in this process a
 * context with an aggregate, its repository, a command that creates it and enqueues a background
 * job, a query, their routes, and a process manager (two integration events, one starting it).
 * The project's `verify` and its specs (the repository's on PostgreSQL) pass; the dev server on
 * PostgreSQL answers the routes, and the job, enqueued in the ORM's transaction in the context's
 * own schema, runs.
 *
 * The process manager, in the same project (not a project of its own per ORM): the first `kit
 * generate process-manager` composes the ORM's process store, and on PostgreSQL (the platform's
 * environment, migrated by `readEnvironment`) the platform resolves that store; a starting event
 * delivered by the relay starts an instance in the context's schema, its deadline job enqueued in
 * the same ORM transaction; a transition whose transaction rolls back leaves neither (a spec this
 * test writes in the project's `test/`, type-checked by its `verify`). The generated spec passes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, serveProject } from "../commands/served_project.ts";
import { kitExecutable, kitIn, runIn, runProgram } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");

/** `kit <args>` as `deno install -g -n kit` runs it; fails with its output unless it exits 0. */
function kit(cwd: string, ...args: string[]): Promise<string> {
  return runIn(cwd, Deno.execPath(), [...kitExecutable, ...args]);
}

/** `kit <args>` run in this process in `cwd`; fails with its output unless it exits 0. */
async function generate(cwd: string, ...args: string[]): Promise<void> {
  const { result, out } = await kitIn(cwd, ...args);
  assert.equal(result, 0, `kit ${args.join(" ")} failed:\n${out}`);
}

/** The slice: a loan, its repository, a command enqueuing a job, a query, their routes. */
const slice: readonly string[] = [
  "generate context lending --kind core",
  "generate aggregate lending Loan",
  "generate repository lending Loan",
  "generate command lending AuditLoan",
  "generate background-job lending AuditLater --command AuditLoan",
  "generate command lending OpenLoan --aggregate Loan --creates --permission loan.open --grant lender --enqueues AuditLater",
  "generate query lending ListLoans --search --aggregate Loan --permission loan.read --grant lender",
  "generate route-group lending LoanRoutes",
  "generate route lending OpenLoan",
  "generate route lending ListLoans",
  "generate integration-event lending LoanLent",
  "generate integration-event lending LoanReturned",
  "generate process-manager lending LoanFollowUp --starts-on LoanLent --handles LoanReturned --deadline remind",
];

/** The spec this test writes in the project: the platform on PostgreSQL, through its ORM. */
function platformSpec(store: string, from: string): string {
  return `import assert from "node:assert/strict";
import { consoleLogger, runInScope, systemActor, TransactionManager } from "@kit/kernel";
import { ProcessStore } from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { ${store} } from "${from}";
import { composePlatform } from "../src/platform/compose-application.ts";
import { readConfig } from "../src/platform/config.ts";
import { readEnvironment } from "../src/platform/platform-environment.ts";
import { LoanLent } from "../src/contexts/lending/published-language/loan-lent.event.ts";

Deno.test({
  name: "the platform on PostgreSQL keeps its process instances with ${store}, in the ORM's transaction",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const environment = await readEnvironment(
      readConfig({ DATABASE_URL: Deno.env.get("DATABASE_URL") }),
      consoleLogger({ level: "error" }),
    );
    const sql = environment.options.sql!;
    try {
      const clock = new TestClock(new Date("2026-01-05T09:00:00.000Z"));
      const application = composePlatform({ ...environment.options, clock });
      const store = application.resolve(ProcessStore);
      assert.ok(store instanceof ${store}, store.constructor.name);
      const transactions = application.resolve(TransactionManager);
      const execution = { origin: "test", actor: systemActor, tenantId: "t1", correlationId: "spec" };
      const publish = (id: string) =>
        transactions.run((unitOfWork) =>
          runInScope({ execution, unitOfWork }, () =>
            application.events.publisher.publish(LoanLent, { id })
          )
        );
      const instances = async () =>
        (await sql\`select key, status, version from lending.kit_process_instances order by key\`)
          .map((row) => \`\${row.key} \${row.status} \${row.version}\`);
      const jobs = async () =>
        (await sql\`select name from lending.background_jobs order by name\`).map((row) => row.name);

      await publish("a1");
      assert.equal(await application.events.relay.deliverDue(), 1);
      assert.deepEqual(await instances(), ["a1 active 1"]);
      assert.deepEqual(await jobs(), ["lending.loan-follow-up-deadline"]);

      // A transition whose transaction fails at its end: its instance and its job are undone.
      await sql\`create function lending.refuse() returns trigger language plpgsql as
        $$ begin raise exception 'refused by the test'; end $$\`;
      await sql\`create constraint trigger refuse after insert on lending.kit_process_messages
        deferrable initially deferred for each row execute function lending.refuse()\`;
      await publish("a2");
      assert.equal(await application.events.relay.deliverDue(), 0);
      assert.deepEqual(await instances(), ["a1 active 1"], "no instance of the rolled-back transition");
      assert.deepEqual(await jobs(), ["lending.loan-follow-up-deadline"], "nor its job");
      // Its delivery is retried: the transition runs again, and commits this time.
      await sql\`drop trigger refuse on lending.kit_process_messages\`;
      clock.advance(3_600_000);
      assert.equal(await application.events.relay.deliverDue(), 1);
      assert.deepEqual(await instances(), ["a1 active 1", "a2 active 1"]);
      assert.equal((await jobs()).length, 2);
    } finally {
      await environment.close();
    }
  },
});
`;
}

/** What each ORM writes that the others do not, and what its repository is built on. */
const expected = {
  drizzle: {
    repository: "loan.drizzle-repository.ts",
    uses: /currentDrizzle\(this\.db\)/,
    registered: /lendingLoanRepositoryOnDrizzle,/,
    store: "DrizzleProcessStore",
    from: "@kit/drizzle",
    storeRegistered: /lendingProcessStoreOnDrizzle,/,
  },
  knex: {
    repository: "loan.knex-repository.ts",
    uses: /currentKnex\(this\.db\)/,
    registered: /lendingLoanRepositoryOnKnex,/,
    store: "KnexProcessStore",
    from: "@kit/knex",
    storeRegistered: /lendingProcessStoreOnKnex,/,
  },
} as const;

for (const orm of ["drizzle", "knex"] as const) {
  Deno.test({
    name:
      `kit init --orm ${orm}: the slice verifies, its specs pass on PostgreSQL (the process manager's instances kept by the ORM's store, in the ORM's transaction), the server answers and the job runs`,
    ignore: databaseUrl === undefined,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const parent = await Deno.makeTempDir({ prefix: `kit-orm-${orm}-` });
      const dir = join(parent, "library");
      const database = await createTestDatabase(databaseUrl!);
      try {
        await kit(
          parent,
          ..."init library --context members:supporting --no-git --orm".split(" "),
          orm,
          "--link",
          checkout,
        );
        for (const line of slice) await generate(dir, ...line.split(" "));
        const infrastructure = join(dir, "src/contexts/lending/infrastructure");
        const repository = await readFile(
          join(infrastructure, expected[orm].repository),
          "utf8",
        );
        assert.match(repository, expected[orm].uses);
        const compose = await readFile(join(dir, "src/platform/compose-application.ts"), "utf8");
        assert.match(compose, expected[orm].registered);
        assert.doesNotMatch(compose, /PostgresTransactions|PostgresOutbox/);
        if (orm === "drizzle") {
          assert.match(
            await readFile(join(dir, "src/platform/database/schema.ts"), "utf8"),
            /export \{ loans as lendingLoans \} from "\.\.\/\.\.\/contexts\/lending\/infrastructure\/loan\.table\.ts";/,
          );
        }
        // The process manager, the first of the project: its store is the ORM's.
        const { store, from, storeRegistered } = expected[orm];
        const storeFile = await readFile(join(infrastructure, "process-store.ts"), "utf8");
        assert.match(storeFile, new RegExp(`new ${store}\\(db, \\{ schema: "lending" \\}\\)`));
        assert.doesNotMatch(storeFile, /PostgresProcessStore/);
        assert.match(compose, storeRegistered);
        await writeFile(join(dir, "test/process-store-on-orm.spec.ts"), platformSpec(store, from));
        await runIn(dir, Deno.execPath(), ["fmt", "--quiet", "test/process-store-on-orm.spec.ts"]);

        // The project's own checks and specs pass, the generated ones and the one written above
        // (on a database of their own, not the one the server runs on below).
        await runIn(dir, Deno.execPath(), ["task", "verify"]);
        const specsDatabase = await createTestDatabase(databaseUrl!);
        let specs: string;
        try {
          // verify type-checked every file (`deno check .`): the specs run without a second check.
          specs = await runIn(dir, Deno.execPath(), ["test", "-A", "--no-check"], {
            DATABASE_URL: specsDatabase.url,
          });
        } finally {
          await specsDatabase.drop();
        }
        assert.match(specs, new RegExp(`${orm === "drizzle" ? "Drizzle" : "Knex"}LoanRepository`));
        assert.match(specs, new RegExp(`with ${store}, in the ORM's transaction \\.\\.\\. ok`));
        assert.match(specs, /LoanFollowUp starts on LoanLent.* \.\.\. ok/);

        const secret = "a-secret-of-this-test-only-0123456789";
        const token = (await runIn(dir, Deno.execPath(), [
          ...kitExecutable,
          ..."token --sub ada --role lender --tenant branch-1".split(" "),
        ], { JWT_SECRET: secret, DATABASE_URL: database.url })).trim();
        const app = await serveProject(dir, "src/main.ts", {
          DATABASE_URL: database.url,
          JWT_SECRET: secret,
        });
        try {
          const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
          const opened = await fetch(`${app.url}/loans`, {
            method: "POST",
            headers,
            body: JSON.stringify({ loanId: "loan-1" }),
          });
          assert.equal(opened.status, 201, await opened.clone().text());
          assert.deepEqual(await opened.json(), { id: "loan-1" });
          const listed = await fetch(`${app.url}/loans`, { headers });
          assert.equal(listed.status, 200);
          assert.deepEqual(await listed.json(), {
            items: [{ id: "loan-1" }],
            total: 1,
            page: 1,
            pageSize: 20,
          });
          // The job the command enqueued, in the context's own schema, runs in this process.
          const deadline = Date.now() + 30_000;
          let jobs: { name: string; status: string }[] = [];
          while (Date.now() < deadline) {
            jobs = (await database.sql<{ name: string; status: string }[]>`
              select name, status from lending.background_jobs`).map((row) => ({ ...row }));
            if (jobs.some((job) => job.status === "succeeded")) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          assert.deepEqual(jobs, [{ name: "lending.audit-later", status: "succeeded" }]);
        } finally {
          assert.equal(await app.stop(), 0, app.output());
        }
        // Each context's jobs in its own schema; none in the default one.
        const tables = await database.sql<{ table_schema: string }[]>`
          select table_schema from information_schema.tables
          where table_name = 'background_jobs' order by table_schema`;
        assert.deepEqual(tables.map((row) => row.table_schema), ["lending", "members"]);
        const stored = await database.sql`
          select tenant_id, version from lending.loans where id = 'loan-1'`;
        assert.deepEqual(stored.map((row) => ({ ...row })), [
          { tenant_id: "branch-1", version: 1 },
        ]);
      } finally {
        await database.drop();
        await Deno.remove(parent, { recursive: true });
      }
    },
  });
}

Deno.test("kit init refuses an unknown --orm, and an ORM beside another queue, writing nothing", async () => {
  const parent = await Deno.makeTempDir({ prefix: "kit-orm-refused-" });
  try {
    for (
      const [args, message] of [
        [["--orm", "prisma"], "kit: Invalid --orm 'prisma': use postgres, drizzle or knex"],
        [
          ["--orm", "knex", "--queue", "redis"],
          "kit: --orm knex enqueues each job in the ORM's transaction on PostgreSQL: use --queue database, not 'redis'",
        ],
      ] as const
    ) {
      const { code, out } = await runProgram(parent, Deno.execPath(), [
        ...kitExecutable,
        ..."init app --context members:supporting --no-git".split(" "),
        ...args,
      ]);
      assert.notEqual(code, 0);
      assert.equal(out.trim(), message);
      assert.deepEqual([...Deno.readDirSync(parent)], [], "nothing written");
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
