/**
 * The same application answers the same requests the same way on Deno, on Node 20 (a bundle run
 * by `node`), on Bun (a bundle served by `Bun.serve` and called over HTTP) and in workerd (a module
 * worker run by miniflare, with `nodejs_compat`). Bun comes from npm (`bun_binary.ts`); when it
 * cannot be had the Bun test is skipped with the reason, and fails under CI.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { answerSamples, sampleRequests } from "./sample_requests.ts";
import { findBun } from "./bun_binary.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..", "..", "..");
const work = join(root, ".kit", "runtimes");

async function run(command: string, args: string[], cwd = root): Promise<string> {
  const output = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(output.stdout);
  if (output.code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return text;
}

async function bundle(entry: string, out: string, platform: "node" | "browser"): Promise<void> {
  await mkdir(work, { recursive: true });
  const args = ["bundle", "--quiet", "--platform", platform, "-o", out, join(here, entry)];
  if (platform === "browser") args.push("--external", "node:async_hooks");
  await run(Deno.execPath(), args);
}

Deno.test("The application answers alike on Deno and on Node 20", async () => {
  const out = join(work, "node_app.mjs");
  await bundle("node_entry.ts", out, "node");
  const node = JSON.parse(await run("node", [out])) as string[];
  assert.deepEqual(node, await answerSamples());
});

const bun = await findBun();
const ci = Deno.env.get("CI") === "true";
if ("missing" in bun && !ci) {
  console.warn(`Skipping the Bun runtime test, Bun is not installed: ${bun.missing}`);
}

Deno.test({
  name: "The application answers alike on Deno and on Bun (Bun.serve, over HTTP)",
  ignore: "missing" in bun && !ci,
  async fn() {
    if ("missing" in bun) throw new Error(`Bun is required under CI: ${bun.missing}`);
    const out = join(work, "bun_app.mjs");
    await bundle("bun_entry.ts", out, "node");
    const answers = JSON.parse(await run(bun.path, [out])) as string[];
    assert.deepEqual(answers, await answerSamples());
  },
});

Deno.test("The application answers alike on Deno and in workerd (miniflare)", async () => {
  const dir = join(work, "workerd");
  await mkdir(dir, { recursive: true });
  if (!existsSync(join(dir, "node_modules", "miniflare"))) {
    await writeFile(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
    await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "miniflare@4.20260730.0",
    ], dir);
  }
  const worker = join(dir, "worker.mjs");
  await bundle("worker_entry.ts", worker, "browser");
  const requests = await Promise.all(
    sampleRequests("http://runtime.test").map(async (r) => ({
      url: r.url,
      method: r.method,
      headers: [...r.headers],
      body: r.body ? await r.text() : undefined,
    })),
  );
  await writeFile(join(dir, "requests.json"), JSON.stringify(requests));
  await writeFile(
    join(dir, "run.mjs"),
    `import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
const mf = new Miniflare({
  modules: true,
  script: readFileSync(new URL("./worker.mjs", import.meta.url), "utf8"),
  compatibilityDate: "2025-09-01",
  compatibilityFlags: ["nodejs_compat"],
});
const out = [];
for (const r of JSON.parse(readFileSync(new URL("./requests.json", import.meta.url), "utf8"))) {
  const response = await mf.dispatchFetch(r.url, { method: r.method, headers: r.headers, body: r.body });
  out.push(response.status + " " + response.headers.get("content-type") + " " + (await response.text()));
}
await mf.dispose();
console.log(JSON.stringify(out));
`,
  );
  const workerd = JSON.parse(await run("node", [join(dir, "run.mjs")], dir)) as string[];
  assert.deepEqual(workerd, await answerSamples());
});
