/**
 * A generated project on Node 20 in memory (no DATABASE_URL): the Node bundle of `kit init
 * --runtime node` answers a generated create 201 (its in-memory repository ran on Node, which
 * lacks `Promise.try`), two tenants create the same id (both 201), a duplicate in one tenant is
 * the aggregate's `LOAN_EXISTS` (409) and says nothing of the other tenant. Each answer is
 * validated against the server's own OpenAPI document.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validatingFetch } from "@kit/http/testing";
import { serveCommand } from "../commands/served_project.ts";
import { kitIn, lendingSlice, runIn } from "../commands/test_project.ts";
import { signProjectToken } from "../commands/token.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));

/** The major version of the `node` on the PATH, if any. */
function nodeMajor(): number | undefined {
  try {
    const out = new Deno.Command("node", { args: ["--version"], stdout: "piped", stderr: "null" })
      .outputSync();
    const version = /^v(\d+)\./.exec(new TextDecoder().decode(out.stdout))?.[1];
    return out.success && version !== undefined ? Number(version) : undefined;
  } catch {
    return undefined;
  }
}

const major = nodeMajor();
if (major !== 20 && Deno.env.get("CI") !== "true") {
  console.log(`skipped: the Node 20 test needs node 20 on the PATH (found ${major ?? "none"})`);
}

Deno.test({
  name:
    "a generated project's Node bundle on Node 20, in memory: a generated POST answers 201; ids per tenant, a duplicate in one is LOAN_EXISTS",
  ignore: major !== 20 && Deno.env.get("CI") !== "true",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assert.equal(major, 20, "node 20 is on the PATH (CI=true)");
    const parent = await Deno.makeTempDir({ prefix: "kit-node20-" });
    const dir = join(parent, "library");
    const kit = async (cwd: string, ...args: string[]) => {
      const { result, out } = await kitIn(cwd, ...args);
      assert.equal(result, 0, `kit ${args.join(" ")}:\n${out}`);
    };
    try {
      await kit(
        parent,
        ..."init library --context members:supporting --no-git --link".split(" "),
        checkout,
        ..."--runtime deno --runtime node".split(" "),
      );
      for (const args of lendingSlice) await kit(dir, ...args);
      await runIn(dir, Deno.execPath(), ["task", "build:node"]);
      const secret = "a-secret-of-this-test-only-0123456789";
      const node = await serveCommand(dir, "node", ["dist/main.node.mjs"], { JWT_SECRET: secret });
      try {
        assert.doesNotMatch(node.output(), /PostgreSQL/, "in memory");
        const document = await (await fetch(`${node.url}/openapi.json`)).json();
        const checked = validatingFetch(fetch, document);
        const open = async (tenant: string) => {
          const token = await signProjectToken(dir, {
            sub: `ada-of-${tenant}`,
            roles: ["lender"],
            tenants: [tenant],
            scopes: [],
          }, (variable) => ({ JWT_SECRET: secret })[variable]);
          const answer = await checked(
            new Request(`${node.url}/loans`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
              body: JSON.stringify({ loanId: "loan-1" }),
            }),
          );
          return { status: answer.status, body: await answer.json() };
        };
        const first = await open("branch-1");
        assert.deepEqual(first, { status: 201, body: { id: "loan-1" } }, node.output());
        // Another tenant names the same id: its own, answered as for a free one.
        assert.deepEqual(await open("branch-2"), { status: 201, body: { id: "loan-1" } });
        // A duplicate in one tenant: LOAN_EXISTS, the same answer in each, naming no tenant.
        const again = await open("branch-1");
        assert.equal(again.status, 409);
        assert.equal(again.body.code, "LOAN_EXISTS");
        const againOf2 = await open("branch-2");
        assert.deepEqual(againOf2, again);
        assert.doesNotMatch(JSON.stringify(again.body), /branch-/);
      } finally {
        assert.equal(await node.stop(), 0, node.output());
      }
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});
