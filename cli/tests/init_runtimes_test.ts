/**
 * `kit init --runtime deno --runtime node --runtime workers`, end to end: a generated command and
 * query behind routes, both bundles built by the project's tasks, then the same calls answered
 * the same way by Deno (`src/main.ts`), Node 20 (the Node bundle) and workerd (the Workers bundle,
 * in miniflare from npm), each on PostgreSQL, with jobs on Redis (the Worker through an Upstash
 * REST bridge), each answer validated against the server's own OpenAPI document. Then a command
 * whose route answers 202 enqueues background jobs on the Worker, run by the API on Deno, then on
 * Node, then by the worker alone (`kit generate worker`: `apps/worker` on Deno, then on Node).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validatingFetch } from "@kit/http/testing";
import { Redis } from "ioredis";
import { startUpstashRestBridge } from "../../jobs/testing/upstash_rest_bridge.ts";
import {
  createTestDatabase,
  serveCommand,
  type ServedProject,
} from "../commands/served_project.ts";
import { initProject } from "../commands/init.ts";
import { kitIn, lendingSlice, projectTree, runIn } from "../commands/test_project.ts";
import { signProjectToken } from "../commands/token.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const databaseUrl = Deno.env.get("DATABASE_URL");
const redisUrl = Deno.env.get("REDIS_URL");
const missing = databaseUrl === undefined || redisUrl === undefined;
if (missing && Deno.env.get("CI") !== "true") {
  console.log("skipped: the runtimes test of kit init needs DATABASE_URL and REDIS_URL");
}

/** A line of code (not of a comment) using a Deno API. */
const usesDeno = /^(?!\s*(?:\*|\/\/|\/\*)).*\bDeno\./m;

/** A project laid out by `initProject` in a temporary directory, as its tree of files. */
async function initialized(input: { runtimes?: string[]; queue?: string }) {
  const parent = await Deno.makeTempDir({ prefix: "kit-runtimes-init-" });
  try {
    await initProject(join(parent, "shop"), { contexts: ["catalog:core"], ...input });
    return await projectTree(join(parent, "shop"));
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

Deno.test("kit init --runtime: an entry point and a build task per runtime, Deno alone by default", async () => {
  const deno = await initialized({});
  assert.ok(deno["src/main.ts"]);
  for (const file of ["src/main.node.ts", "src/worker.ts", "wrangler.toml"]) {
    assert.equal(deno[file], undefined, file);
  }
  const denoJson = JSON.parse(deno["deno.json"]!);
  assert.equal(denoJson.tasks["build:node"], undefined);
  assert.equal(denoJson.imports["@hono/node-server"], undefined);
  assert.equal(JSON.parse(deno["kit.config.json"]!).queue, "database");

  const all = await initialized({ runtimes: ["workers", "node", "deno"] });
  for (const file of ["src/main.ts", "src/main.node.ts", "src/worker.ts", "wrangler.toml"]) {
    assert.ok(all[file], file);
  }
  const tasks = JSON.parse(all["deno.json"]!).tasks;
  assert.match(tasks["build:node"], /^deno bundle --platform node .*src\/main\.node\.ts$/);
  assert.match(
    tasks["build:workers"],
    /^deno eval '.*' && DENO_CONDITIONS=workerd deno bundle --platform browser --import-map /,
  );
  // Every project, one with a Worker too, runs kit's patched postgres.js.
  assert.equal(JSON.parse(all["deno.json"]!).imports.postgres, denoJson.imports.postgres);
  assert.match(denoJson.imports.postgres, /^jsr:@kit\/postgres@/);
  // A Worker enqueues to Upstash Redis: the queue the Deno or Node process reads is redis.
  assert.equal(JSON.parse(all["kit.config.json"]!).queue, "redis");
  assert.match(all["README.md"]!, /\n## Cloudflare Workers\n[\s\S]*postgres\.js/);
  // Portable by construction: no platform file but Deno's HTTP adapter uses a Deno API.
  const denoApis = Object.entries(all).filter(([path, text]) =>
    path.startsWith("src/platform/") && path !== "src/platform/http/serve.ts" &&
    path !== "src/platform/docs/generate-docs.ts" && usesDeno.test(text)
  ).map(([path]) => path);
  assert.deepEqual(denoApis, []);
  assert.doesNotMatch(all["src/main.node.ts"]! + all["src/worker.ts"]!, usesDeno);
});

Deno.test("kit init --runtime refuses an unknown runtime, and a Worker with a queue it cannot feed", async () => {
  await assert.rejects(
    initialized({ runtimes: ["bun"] }),
    /^CliError: Invalid --runtime 'bun': use deno, node or workers$/,
  );
  await assert.rejects(
    initialized({ runtimes: ["workers"], queue: "database" }),
    /--runtime workers enqueues jobs to Upstash Redis, .*: use --queue redis, not 'database'/,
  );
});

/** miniflare from npm, installed once beside the README runtimes test's; answers its folder. */
async function miniflare(): Promise<string> {
  const dir = join(checkout, ".kit", "runtimes", "workerd");
  await mkdir(dir, { recursive: true });
  if (!existsSync(join(dir, "node_modules", "miniflare"))) {
    await writeFile(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
    await runIn(dir, "npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "miniflare@4.20260730.0",
    ]);
  }
  return dir;
}

/**
 * A Node script serving a Worker bundle in workerd on `PORT` until SIGTERM, with the bindings
 * (JSON) of `WORKER_BINDINGS`, the compatibility of the project's `wrangler.toml`.
 */
function workerdServer(bundle: string, wrangler: string): string {
  const date = /^compatibility_date = "([\d-]+)"$/m.exec(wrangler)?.[1];
  const flags = /^compatibility_flags = (\[.*\])$/m.exec(wrangler)?.[1];
  assert.ok(date && flags, `wrangler.toml names its compatibility:\n${wrangler}`);
  return `import { Miniflare } from "miniflare";
import { dirname } from "node:path";
const mf = new Miniflare({
  modules: true,
  scriptPath: ${JSON.stringify(bundle)},
  modulesRoot: dirname(${JSON.stringify(bundle)}),
  compatibilityDate: ${JSON.stringify(date)},
  compatibilityFlags: ${flags},
  bindings: JSON.parse(process.env.WORKER_BINDINGS),
  host: "127.0.0.1",
  port: Number(process.env.PORT),
});
console.log(\`listening on \${await mf.ready}\`);
process.on("SIGTERM", async () => {
  await mf.dispose();
  process.exit(0);
});
`;
}

/**
 * What a user adds to the lending slice for work in the background: `RequestLoan` (granted to
 * `lender`), whose handler, written by hand, enqueues `OpenLoanLater` (generated: it sends
 * `OpenLoan` as the enqueuing actor) and answers the job's id; its route, generated after the
 * handler, answers 202 at `POST /loans/:loanId/request`.
 */
async function addQueuedRequest(dir: string, kit: (...args: string[]) => Promise<void>) {
  await kit(
    ..."generate command lending RequestLoan --permission loan.request --grant lender".split(" "),
  );
  await kit(..."generate background-job lending OpenLoanLater --command OpenLoan".split(" "));
  const folder = join(dir, "src/contexts/lending/application/commands/request-loan");
  await writeFile(
    join(folder, "request-loan.command.ts"),
    `import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { lendingPermissions } from "../../../lending.permissions.ts";

/** RequestLoan: opens the loan later, in a background job; needs 'loan.request'. */
@Requires(lendingPermissions["loan.request"])
export class RequestLoan extends AuthorizedCommand<{ jobId: string }> {
  constructor(actor: Actor, readonly loanId: string) {
    super(actor);
  }
}
`,
  );
  await writeFile(
    join(folder, "request-loan.handler.ts"),
    `import { Handles, type JobQueue } from "@kit/kernel";
import { OpenLoanLater } from "../../background/open-loan-later.job.ts";
import { RequestLoan } from "./request-loan.command.ts";

/** Runs RequestLoan: enqueues OpenLoanLater in this unit of work and answers the job's id. */
@Handles(RequestLoan)
export class RequestLoanHandler {
  constructor(private readonly jobs: JobQueue) {}

  async handle(command: RequestLoan): Promise<{ jobId: string }> {
    const { id } = await this.jobs.enqueue(OpenLoanLater, { loanId: command.loanId }, {
      subject: command.loanId,
    });
    return { jobId: id };
  }
}
`,
  );
  await kit("generate", "route", "lending", "RequestLoan");
  const controller = await readFile(
    join(dir, "src/contexts/lending/presentation/http/request-loan.controller.ts"),
    "utf8",
  );
  assert.match(controller, /path: "\/:loanId\/request",[\s\S]*status: 202,/);
}

/**
 * The API docs page at `/docs` and its assets (Swagger UI's, from the server itself), each as
 * its status, type, Content-Security-Policy and body.
 */
async function docsPage(served: ServedProject) {
  const get = async (path: string) => {
    const response = await fetch(`${served.url}${path}`);
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      policy: response.headers.get("content-security-policy"),
      body: await response.text(),
    };
  };
  return {
    page: await get("/docs"),
    script: await get("/docs/swagger-ui-bundle.js"),
    stylesheet: await get("/docs/swagger-ui.css"),
  };
}

/** POST then GET of the generated routes, as the served document says; answers what each gave. */
async function openThenList(served: ServedProject, token: string, loanId: string) {
  const document = await (await fetch(`${served.url}/openapi.json`)).json();
  const checked = validatingFetch(fetch, document);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const opened = await checked(
    new Request(`${served.url}/loans`, {
      method: "POST",
      headers,
      body: JSON.stringify({ loanId }),
    }),
  );
  const listed = await checked(new Request(`${served.url}/loans`, { headers }));
  const anonymous = await checked(new Request(`${served.url}/loans`));
  await anonymous.body?.cancel();
  return {
    document,
    opened: { status: opened.status, body: await opened.json() },
    listed: { status: listed.status, body: await listed.json() },
    anonymous: anonymous.status,
  };
}

Deno.test({
  name:
    "kit init --runtime deno --runtime node --runtime workers: the Node and Workers bundles answer a generated route and the docs page as Deno does, on PostgreSQL, to a kit token; jobs the Worker enqueues run on Deno, on Node and in apps/worker on both",
  ignore: missing && Deno.env.get("CI") !== "true",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assert.ok(!missing, "DATABASE_URL and REDIS_URL are set (CI=true)");
    const parent = await Deno.makeTempDir({ prefix: "kit-runtimes-" });
    const dir = join(parent, "library");
    const kit = async (cwd: string, ...args: string[]) => {
      const { result, out } = await kitIn(cwd, ...args);
      assert.equal(result, 0, `kit ${args.join(" ")}:\n${out}`);
    };
    await kit(
      parent,
      ..."init library --context members:supporting --no-git --link".split(" "),
      checkout,
      ..."--runtime deno --runtime node --runtime workers".split(" "),
    );
    for (const args of lendingSlice) await kit(dir, ...args);
    await addQueuedRequest(dir, (...args) => kit(dir, ...args));

    // The platform reads no runtime's API outside the entry points (Deno's serve.ts is its HTTP
    // adapter).
    const config = await readFile(join(dir, "src/platform/config.ts"), "utf8");
    assert.match(config, /export function readConfig\(env: Environment\): PlatformConfig/);
    const readme = await readFile(join(dir, "README.md"), "utf8");
    for (const heading of ["## Deno", "## Node", "## Cloudflare Workers"]) {
      assert.ok(readme.includes(`\n${heading}\n`), `README.md has ${heading}`);
    }
    await runIn(dir, Deno.execPath(), ["task", "build:node"]);
    await runIn(dir, Deno.execPath(), ["task", "build:workers"]);
    // The Worker runs the Workers build of kit's patched driver (a patch's own statement: a
    // statement without an answer in time fails with QUERY_TIMEOUT), over cloudflare:sockets.
    const workerBundle = await readFile(join(dir, "dist/worker.mjs"), "utf8");
    assert.match(workerBundle, /\.connection\("QUERY_TIMEOUT"/);
    assert.match(workerBundle, /import\("cloudflare:sockets"\)/);
    assert.doesNotMatch(workerBundle, /from "node:(net|tls)"/);
    const workerd = await miniflare();
    await writeFile(
      join(workerd, "serve-worker.mjs"),
      workerdServer(
        join(dir, "dist/worker.mjs"),
        await readFile(join(dir, "wrangler.toml"), "utf8"),
      ),
    );

    const database = await createTestDatabase(databaseUrl!);
    const bridge = await startUpstashRestBridge(redisUrl!);
    const redis = new Redis(redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    // The job store's keys of this test only: no other test's worker claims its jobs.
    const prefix = `kit-runtimes-${crypto.randomUUID()}:`;
    const served: ServedProject[] = [];
    try {
      const secret = "a-secret-of-this-test-only-0123456789";
      const env = {
        DATABASE_URL: database.url,
        JWT_SECRET: secret,
        REDIS_URL: redisUrl!,
        REDIS_DURABILITY: "off",
        REDIS_PREFIX: prefix,
      };
      // Node first: it migrates the database the Worker then uses (a Worker never migrates).
      const node = await serveCommand(dir, "node", ["dist/main.node.mjs"], env);
      served.push(node);
      assert.match(
        node.output(),
        /listening on .* \(data on PostgreSQL \(DATABASE_URL\), jobs Redis \(through the outbox\)\)/,
      );
      const deno = await serveCommand(dir, Deno.execPath(), ["run", "-A", "src/main.ts"], env);
      served.push(deno);
      const worker = await serveCommand(workerd, "node", ["serve-worker.mjs"], {
        WORKER_BINDINGS: JSON.stringify({
          DATABASE_URL: database.url,
          JWT_SECRET: secret,
          UPSTASH_REDIS_REST_URL: bridge.url,
          UPSTASH_REDIS_REST_TOKEN: bridge.token,
          REDIS_DURABILITY: "off",
          REDIS_PREFIX: prefix,
        }),
      });
      served.push(worker);

      const answers = [];
      for (
        const [name, runtime] of [["deno", deno], ["node", node], ["workers", worker]] as const
      ) {
        // Each runtime in a tenant of its own, so that each lists only what it created.
        const token = await signProjectToken(dir, {
          sub: "ada",
          roles: ["lender"],
          tenants: [`branch-${name}`],
          scopes: [],
        }, (variable) => ({ JWT_SECRET: secret, DATABASE_URL: database.url })[variable]);
        const answer = await openThenList(runtime, token, `loan-${name}`);
        assert.equal(answer.opened.status, 201, `${name}: ${JSON.stringify(answer.opened)}`);
        assert.deepEqual(answer.opened.body, { id: `loan-${name}` }, name);
        assert.equal(answer.listed.status, 200, name);
        assert.deepEqual(answer.listed.body, {
          items: [{ id: `loan-${name}` }],
          total: 1,
          page: 1,
          pageSize: 20,
        }, name);
        assert.equal(answer.anonymous, 401, name);
        answers.push(answer);
      }
      // One API: the same document on every runtime, and the same docs page.
      assert.deepEqual(answers[1]!.document, answers[0]!.document);
      assert.deepEqual(answers[2]!.document, answers[0]!.document);
      const docs = await Promise.all([deno, node, worker].map(docsPage));
      assert.equal(docs[0]!.page.status, 200);
      assert.match(docs[0]!.page.body, /<script src="\/docs\/swagger-ui-bundle\.js"><\/script>/);
      assert.match(docs[0]!.script.body, /SwaggerUIBundle/);
      assert.match(docs[0]!.stylesheet.body, /\.swagger-ui/);
      assert.deepEqual(docs[1], docs[0], "node's docs page");
      assert.deepEqual(docs[2], docs[0], "workers' docs page");
      const rows = await database.sql`select id, tenant_id from lending.loans order by id`;
      assert.deepEqual(rows.map((row) => ({ ...row })), [
        { id: "loan-deno", tenant_id: "branch-deno" },
        { id: "loan-node", tenant_id: "branch-node" },
        { id: "loan-workers", tenant_id: "branch-workers" },
      ]);

      // A job enqueued by the Worker (202), through the Upstash REST protocol, into the Redis the
      // Deno and Node processes run jobs from: run by Deno while Node is stopped, then, enqueued
      // while neither runs, by Node once it is started again.
      const token = await signProjectToken(dir, {
        sub: "ada",
        roles: ["lender"],
        tenants: ["branch-jobs"],
        scopes: [],
      }, (variable) => ({ JWT_SECRET: secret, DATABASE_URL: database.url })[variable]);
      const checked = validatingFetch(fetch, answers[2]!.document);
      const request = async (loanId: string): Promise<string> => {
        const answer = await checked(
          new Request(`${worker.url}/loans/${loanId}/request`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}` },
          }),
        );
        const body = await answer.json();
        assert.equal(answer.status, 202, `${loanId}: ${JSON.stringify(body)}`);
        assert.deepEqual(Object.keys(body), ["jobId"]);
        return body.jobId;
      };
      const job = (id: string) => redis.hmget(`${prefix}job:${id}`, "n", "t", "st", "ec");
      const ran = async (id: string, loanId: string, by: ServedProject) => {
        const deadline = Date.now() + 30_000;
        let state = await job(id);
        while (state[2] !== "succeeded") {
          assert.ok(
            Date.now() < deadline && state[2] !== "dead",
            `job ${id} (name, tenant, status, error) ${JSON.stringify(state)}:\n${by.output()}`,
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
          state = await job(id);
        }
        assert.deepEqual(state, ["lending.open-loan-later", "branch-jobs", "succeeded", null]);
        const rows = await database
          .sql`select id, tenant_id from lending.loans where id = ${loanId}`;
        assert.deepEqual(rows.map((row) => ({ ...row })), [{
          id: loanId,
          tenant_id: "branch-jobs",
        }]);
      };
      const jobsStarted = Date.now();
      assert.equal(await node.stop(), 0, node.output());
      await ran(await request("loan-by-deno"), "loan-by-deno", deno);
      assert.equal(await deno.stop(), 0, deno.output());
      const waiting = await request("loan-by-node");
      assert.deepEqual(await job(waiting), [
        "lending.open-loan-later",
        "branch-jobs",
        "waiting",
        null,
      ]);
      const nodeAgain = await serveCommand(dir, "node", ["dist/main.node.mjs"], env);
      served.push(nodeAgain);
      await ran(waiting, "loan-by-node", nodeAgain);
      // `kit generate worker`: the jobs in a process of their own, apps/worker on Deno.
      assert.equal(await nodeAgain.stop(), 0, nodeAgain.output());
      await kit(dir, "generate", "worker");
      const forWorker = await request("loan-by-worker");
      assert.deepEqual(await job(forWorker), [
        "lending.open-loan-later",
        "branch-jobs",
        "waiting",
        null,
      ]);
      const jobWorker = await serveCommand(
        dir,
        Deno.execPath(),
        ["run", "-A", "apps/worker/main.ts"],
        env,
        /worker started \(data on PostgreSQL \(DATABASE_URL\), jobs Redis \(through the outbox\)\)/,
      );
      served.push(jobWorker);
      await ran(forWorker, "loan-by-worker", jobWorker);
      // And its Node twin, bundled as its doc comment says.
      assert.equal(await jobWorker.stop(), 0, jobWorker.output());
      const bundle = /^ \* (deno bundle --platform node .*)$/m.exec(
        await readFile(join(dir, "apps/worker/main.node.ts"), "utf8"),
      )?.[1];
      assert.equal(
        bundle,
        "deno bundle --platform node -o dist/worker.node.mjs apps/worker/main.node.ts",
      );
      await runIn(dir, Deno.execPath(), bundle.split(" ").slice(1));
      const forNodeWorker = await request("loan-by-node-worker");
      const nodeWorker = await serveCommand(
        dir,
        "node",
        ["dist/worker.node.mjs"],
        env,
        /worker started \(data on PostgreSQL \(DATABASE_URL\), jobs Redis \(through the outbox\)\)/,
      );
      served.push(nodeWorker);
      await ran(forNodeWorker, "loan-by-node-worker", nodeWorker);
      console.log(
        `jobs enqueued on the Worker, run on Deno, Node and apps/worker on both: ${
          Date.now() - jobsStarted
        } ms`,
      );
    } finally {
      for (const runtime of served) await runtime.stop();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await bridge.close();
      await database.drop();
      await Deno.remove(parent, { recursive: true });
    }
  },
});
