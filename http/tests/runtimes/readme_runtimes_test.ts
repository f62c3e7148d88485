/**
 * The runtimes guide's (docs/guides/runtimes.md) "Use kit on Node", "Use kit on Bun" and "Use kit
 * on Cloudflare Workers", followed step by step in one fresh directory: the files of the three
 * sections written from the guide's code blocks (each named by its first line) and type-checked
 * together, each section's shell steps run as written, then the Node bundle served by Node 20, the
 * Bun bundle by Bun (from npm: skipped with the reason when it cannot be had, failed under CI) and
 * the worker bundle by workerd (miniflare), each called with a token. The one departure: the
 * project's `deno.json` links the JSR packages to this checkout (`links`), JSR being out of reach
 * here.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT } from "jose";
import { findBun } from "./bun_binary.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const secret = "readme-runtimes-secret-of-32-bytes!";

interface Block {
  readonly lang: string;
  readonly text: string;
}

/** The guide that says how to run kit on each runtime. */
const guide = "docs/guides/runtimes.md";

/** The code blocks of a section of the guide, in order. */
async function sectionBlocks(heading: string): Promise<Block[]> {
  const readme = await readFile(join(root, guide), "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${guide} has '## ${heading}'`);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1]!,
    text: m[2]!,
  }));
}

/** Writes the blocks that name a file (`// src/app.ts`, `# wrangler.toml`); answers the shell steps. */
async function writeFiles(dir: string, blocks: readonly Block[]): Promise<string[]> {
  const steps: string[] = [];
  for (const block of blocks) {
    const named = /^(?:\/\/|#) ([\w./-]+\.(?:ts|toml))\n/.exec(block.text);
    if (named) {
      await mkdir(dirname(join(dir, named[1]!)), { recursive: true });
      await writeFile(join(dir, named[1]!), block.text);
    } else if (block.lang === "sh") {
      steps.push(...block.text.split("\n").filter((line) => line.trim() !== ""));
    }
  }
  return steps;
}

async function run(
  cwd: string,
  command: string,
  args: readonly string[],
): Promise<string> {
  const output = await new Deno.Command(command, {
    args: [...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  assert.equal(output.code, 0, `${command} ${args.join(" ")}:\n${decode(output.stderr)}`);
  return decode(output.stdout);
}

/** Runs a `deno bundle ...` step of the README (the others start servers: the test does that). */
async function bundleStep(dir: string, step: string): Promise<void> {
  assert.match(step, /^deno bundle /, `a build step: ${step}`);
  await run(dir, Deno.execPath(), step.split(" ").slice(1));
}

/** The sections of the guide this file follows, by the runtime each is about. */
const sections = {
  node: "Use kit on Node",
  bun: "Use kit on Bun",
  workers: "Use kit on Cloudflare Workers",
} as const;

/** The project the three sections are followed in, and each section's shell steps. */
interface GuideProject {
  readonly dir: string;
  readonly steps: Record<keyof typeof sections, string[]>;
}

let guideProjectMade: Promise<GuideProject> | undefined;

/**
 * One fresh project with the files of the three sections (each its own files: the Bun and Workers
 * sections build on the Node section's `src/app.ts`, as the guide says), type-checked once by one
 * `deno check` of the three entry points (`src/app.ts`, kit and their dependencies checked once,
 * not once a section). Made by the first test that needs it; removed when this file's tests end.
 */
function guideProject(): Promise<GuideProject> {
  guideProjectMade ??= (async () => {
    const dir = await freshProject();
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    const steps = {
      node: await writeFiles(dir, await sectionBlocks(sections.node)),
      bun: await writeFiles(dir, await sectionBlocks(sections.bun)),
      workers: await writeFiles(dir, await sectionBlocks(sections.workers)),
    };
    await run(dir, Deno.execPath(), [
      "check",
      "src/main.node.ts",
      "src/main.bun.ts",
      "src/worker.ts",
    ]);
    return { dir, steps };
  })();
  return guideProjectMade;
}

/** A fresh project as `deno add` makes it, the JSR packages linked to this checkout. */
async function freshProject(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kit-readme-runtimes-" });
  const imports = JSON.parse(await readFile(join(root, "deno.json"), "utf8")).imports;
  await writeFile(
    join(dir, "deno.json"),
    JSON.stringify(
      {
        imports: {
          "@kit/kernel": "jsr:@kit/kernel@^0.1.0",
          "@kit/http": "jsr:@kit/http@^0.1.0",
          "zod": imports["zod"],
          "@hono/node-server": imports["@hono/node-server"],
        },
        links: [join(root, "kernel"), join(root, "http")],
      },
      null,
      2,
    ),
  );
  return dir;
}

function token(roles: string[]): Promise<string> {
  return new SignJWT({ roles })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("reader-1")
    .setIssuer("greetings")
    .setAudience("greetings-api")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(secret));
}

/** The answers every runtime must give: 200 with a reader's token, 403 without the role, 401. */
async function expectedAnswers(call: (path: string, token?: string) => Promise<Response>) {
  const ok = await call("/greetings/Ada", await token(["reader"]));
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { text: "Hello, Ada" });
  const forbidden = await call("/greetings/Ada", await token([]));
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.headers.get("content-type"), "application/problem+json");
  await forbidden.body?.cancel();
  const anonymous = await call("/greetings/Ada");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const document = await call("/openapi.json");
  assert.equal(document.status, 200);
  assert.ok((await document.json()).paths["/greetings/{name}"], "the route is documented");
}

/** Starts a bundle's server (`command bundle` with `PORT` and `JWT_SECRET`) and checks its answers. */
async function serveAndCall(dir: string, command: string, bundle: string): Promise<void> {
  const port = 18_787 + Math.floor(Math.random() * 1000);
  const server = new Deno.Command(command, {
    args: [bundle],
    cwd: dir,
    env: { JWT_SECRET: secret, PORT: String(port) },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let attempt = 0;; attempt++) {
      try {
        await (await fetch(`${base}/openapi.json`)).body?.cancel();
        break;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await expectedAnswers((path, bearer) =>
      fetch(base + path, bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {})
    );
  } finally {
    server.kill();
    await server.output();
  }
}

Deno.test({
  name:
    "docs/guides/runtimes.md, Use kit on Node: the bundle runs on Node 20 and answers with a token",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, steps: { node: steps } } = await guideProject();
    await bundleStep(dir, steps[0]!);
    assert.match(steps[1]!, /^JWT_SECRET=\.\.\. PORT=8787 node dist\/app\.node\.mjs$/);
    await serveAndCall(dir, "node", "dist/app.node.mjs");
  },
});

const bun = await findBun();
const ci = Deno.env.get("CI") === "true";
if ("missing" in bun && !ci) {
  console.warn(`Skipping the guide's Bun section, Bun is not installed: ${bun.missing}`);
}

Deno.test({
  name: "docs/guides/runtimes.md, Use kit on Bun: the bundle runs on Bun and answers with a token",
  ignore: "missing" in bun && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if ("missing" in bun) throw new Error(`Bun is required under CI: ${bun.missing}`);
    const { dir, steps: { bun: steps } } = await guideProject();
    await bundleStep(dir, steps[0]!);
    assert.match(steps[1]!, /^JWT_SECRET=\.\.\. PORT=8787 bun dist\/app\.bun\.mjs$/);
    await serveAndCall(dir, bun.path, "dist/app.bun.mjs");
  },
});

Deno.test({
  name:
    "docs/guides/runtimes.md, Use kit on Cloudflare Workers: the bundle runs in workerd and answers with a token",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, steps: { workers: steps } } = await guideProject();
    const wrangler = await readFile(join(dir, "wrangler.toml"), "utf8");
    assert.match(wrangler, /^main = "dist\/worker\.mjs"$/m);
    assert.match(wrangler, /^compatibility_flags = \["nodejs_compat"\]$/m);
    const date = /^compatibility_date = "([\d-]+)"$/m.exec(wrangler)![1]!;
    await bundleStep(dir, steps[0]!);

    // miniflare from npm, installed once beside the runtimes test's.
    const workerd = join(root, ".kit", "runtimes", "workerd");
    await mkdir(workerd, { recursive: true });
    if (!existsSync(join(workerd, "node_modules", "miniflare"))) {
      await writeFile(
        join(workerd, "package.json"),
        JSON.stringify({ private: true, type: "module" }),
      );
      await run(workerd, "npm", [
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "miniflare@4.20260730.0",
      ]);
    }
    const calls = [
      { path: "/greetings/Ada", roles: ["reader"] },
      { path: "/greetings/Ada", roles: [] },
      { path: "/greetings/Ada" },
      { path: "/openapi.json" },
    ];
    const requests = await Promise.all(calls.map(async (c) => ({
      url: `http://greetings.test${c.path}`,
      headers: c.roles ? { authorization: `Bearer ${await token(c.roles)}` } : {},
    })));
    const script = join(workerd, "readme-run.mjs");
    await writeFile(
      script,
      `import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
const mf = new Miniflare({
modules: true,
script: readFileSync(${JSON.stringify(join(dir, "dist/worker.mjs"))}, "utf8"),
compatibilityDate: ${JSON.stringify(date)},
compatibilityFlags: ["nodejs_compat"],
bindings: { JWT_SECRET: ${JSON.stringify(secret)} },
});
const out = [];
for (const r of ${JSON.stringify(requests)}) {
const response = await mf.dispatchFetch(r.url, { headers: r.headers });
out.push({ status: response.status, type: response.headers.get("content-type"), body: await response.text() });
}
await mf.dispose();
console.log(JSON.stringify(out));
`,
    );
    const answers = JSON.parse(await run(workerd, "node", [script])) as {
      status: number;
      type: string;
      body: string;
    }[];
    let index = 0;
    await expectedAnswers((path) => {
      const answer = answers[index++]!;
      assert.equal(path, calls[index - 1]!.path);
      return Promise.resolve(
        new Response(answer.body, {
          status: answer.status,
          headers: answer.type ? { "content-type": answer.type } : {},
        }),
      );
    });
  },
});
