/**
 * A project on each ORM (`kit init --orm drizzle`, `--orm knex`), through the real executable with
 * no hand-written line: a context with an aggregate, its repository, a command that creates it
 * and enqueues a background job, a query, their routes; the project's `verify` and its specs
 * (the repository's on PostgreSQL) pass; the dev server on PostgreSQL answers the routes, and the
 * job, enqueued in the ORM's transaction in the context's own schema, runs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, serveProject } from "../commands/served_project.ts";
import { kitExecutable, runIn, runProgram } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");

/** `kit <args>` as `deno install -g -n kit` runs it; fails with its output unless it exits 0. */
function kit(cwd: string, ...args: string[]): Promise<string> {
  return runIn(cwd, Deno.execPath(), [...kitExecutable, ...args]);
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
];

/** What each ORM writes that the others do not, and what its repository is built on. */
const expected = {
  drizzle: {
    repository: "loan.drizzle-repository.ts",
    uses: /currentDrizzle\(this\.db\)/,
    registered: /lendingLoanRepositoryOnDrizzle,/,
  },
  knex: {
    repository: "loan.knex-repository.ts",
    uses: /currentKnex\(this\.db\)/,
    registered: /lendingLoanRepositoryOnKnex,/,
  },
} as const;

for (const orm of ["drizzle", "knex"] as const) {
  Deno.test({
    name:
      `kit init --orm ${orm}: the slice verifies, its specs pass on PostgreSQL, the server answers and the job runs`,
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
        for (const line of slice) await kit(dir, ...line.split(" "));
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
        // The project's own checks and specs pass as generated (the repository's on PostgreSQL).
        await runIn(dir, Deno.execPath(), ["task", "verify"]);
        // verify type-checked every file (`deno check .`): the specs run without a second check.
        const specs = await runIn(dir, Deno.execPath(), ["test", "-A", "--no-check"], {
          DATABASE_URL: databaseUrl!,
        });
        assert.match(specs, new RegExp(`${orm === "drizzle" ? "Drizzle" : "Knex"}LoanRepository`));

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
