/**
 * The first hour with kit, through the real executable, with no hand-written line: `kit init`, a
 * context, an aggregate with its repository, a command that creates it (with a permission granted
 * to a role) and a search query, a route for each, `kit token` for that role; the generated dev
 * server on PostgreSQL answers the command 201 and the query 200 with the created item, each
 * answer as the server's own OpenAPI document says, which lists each route's permission.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validatingFetch } from "@kit/http/testing";
import { createTestDatabase, serveProject } from "../commands/served_project.ts";
import { kitExecutable, lendingSlice, runIn } from "../commands/test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");

/** `kit <args>` as `deno install -g -n kit` runs it; fails with its output unless it exits 0. */
function kit(cwd: string, ...args: string[]): Promise<string> {
  return runIn(cwd, Deno.execPath(), [...kitExecutable, ...args]);
}

Deno.test({
  name:
    "a new project's generated routes answer 201 then 200 with the created item, to a kit token, on PostgreSQL",
  ignore: databaseUrl === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "kit-first-hour-" });
    const dir = join(parent, "library");
    const database = await createTestDatabase(databaseUrl!);
    try {
      await kit(parent, "init", dir, "--context", "members:supporting", "--link", checkout);
      for (const args of lendingSlice) await kit(dir, ...args);
      // The project's own checks and specs pass as generated (the repository's on PostgreSQL).
      await runIn(dir, Deno.execPath(), ["task", "verify"]);
      // verify type-checked every file (`deno check .`): the specs run without a second check.
      await runIn(dir, Deno.execPath(), ["test", "-A", "--no-check"], {
        DATABASE_URL: databaseUrl!,
      });

      const secret = "a-secret-of-this-test-only-0123456789";
      const token = (await runIn(dir, Deno.execPath(), [
        ...kitExecutable,
        ..."token --sub ada --role lender --tenant branch-1".split(" "),
      ], { JWT_SECRET: secret, DATABASE_URL: database.url })).trim();
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);

      const app = await serveProject(dir, "src/main.ts", {
        DATABASE_URL: database.url,
        JWT_SECRET: secret,
      });
      try {
        const document = await (await fetch(`${app.url}/openapi.json`)).json();
        // Each generated operation lists the permission its message requires.
        assert.deepEqual(document.paths["/loans"].post["x-permissions"], ["loan.open"]);
        assert.deepEqual(document.paths["/loans"].get["x-permissions"], ["loan.read"]);
        const checked = validatingFetch(fetch, document);
        const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
        const opened = await checked(
          new Request(`${app.url}/loans`, {
            method: "POST",
            headers,
            body: JSON.stringify({ loanId: "loan-1" }),
          }),
        );
        assert.equal(opened.status, 201, await opened.clone().text());
        assert.deepEqual(await opened.json(), { id: "loan-1" });
        const listed = await checked(new Request(`${app.url}/loans`, { headers }));
        assert.equal(listed.status, 200);
        assert.deepEqual(await listed.json(), {
          items: [{ id: "loan-1" }],
          total: 1,
          page: 1,
          pageSize: 20,
        });
        // The same id again in the tenant is LOAN_EXISTS, never an overwrite.
        const again = await checked(
          new Request(`${app.url}/loans`, {
            method: "POST",
            headers,
            body: JSON.stringify({ loanId: "loan-1" }),
          }),
        );
        assert.equal(again.status, 409);
        const problem = await again.json();
        assert.equal(problem.code, "LOAN_EXISTS");
        // Ids are each tenant's own: another branch opens loan-1 too, and learns nothing of the
        // first's (201, as for a free id); a duplicate there is its own LOAN_EXISTS.
        const otherToken = (await runIn(dir, Deno.execPath(), [
          ...kitExecutable,
          ..."token --sub bob --role lender --tenant branch-2".split(" "),
        ], { JWT_SECRET: secret, DATABASE_URL: database.url })).trim();
        const ofBranch2 = { ...headers, authorization: `Bearer ${otherToken}` };
        const post = (h: Record<string, string>) =>
          checked(
            new Request(`${app.url}/loans`, {
              method: "POST",
              headers: h,
              body: JSON.stringify({ loanId: "loan-1" }),
            }),
          );
        const opened2 = await post(ofBranch2);
        assert.equal(opened2.status, 201, await opened2.clone().text());
        assert.deepEqual(await opened2.json(), { id: "loan-1" });
        const again2 = await post(ofBranch2);
        assert.equal(again2.status, 409);
        const problem2 = await again2.json();
        assert.equal(problem2.code, "LOAN_EXISTS");
        assert.equal(problem2.detail, problem.detail, "the same answer in each tenant");
        assert.doesNotMatch(JSON.stringify(problem2), /branch-1/);
        // Each branch lists its own loan-1 only.
        for (const h of [headers, ofBranch2]) {
          const own = await checked(new Request(`${app.url}/loans`, { headers: h }));
          assert.equal((await own.json()).total, 1);
        }
      } finally {
        assert.equal(await app.stop(), 0, app.output());
      }
      const stored = await database.sql`
        select tenant_id, version from lending.loans where id = 'loan-1' order by tenant_id`;
      assert.deepEqual(stored.map((row) => ({ ...row })), [
        { tenant_id: "branch-1", version: 1 },
        { tenant_id: "branch-2", version: 1 },
      ]);
    } finally {
      await database.drop();
      await Deno.remove(parent, { recursive: true });
    }
  },
});
