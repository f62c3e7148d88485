/**
 * The entry points of a generated project beyond Deno's `src/main.ts`: Node's (`src/main.node.ts`,
 * a Node HTTP server through `@hono/node-server`) and Cloudflare Workers' (`src/worker.ts` with
 * its `wrangler.toml` and the Upstash job store), each reading the platform's config from its
 * runtime's environment and serving `platformFetch`.
 *
 * @module
 */

/** The runtimes `kit init --runtime` lays out an entry point for. */
export const runtimes = ["deno", "node", "workers"] as const;

/** A runtime `kit init --runtime` knows. */
export type Runtime = typeof runtimes[number];

/** The bundle each build task writes. */
export const bundles = {
  node: "dist/main.node.mjs",
  workers: "dist/worker.mjs",
} as const;

/** The import map the Workers bundle is built with (written by `build:workers`). */
const workersImportMap = "dist/worker.imports.json";

/**
 * A script writing {@link workersImportMap}: the project's imports, `postgres` mapped to the
 * Workers build of kit's patched driver (`@kit/postgres/cf`, over `cloudflare:sockets`). `deno
 * bundle --import-map` replaces the imports of `deno.json` rather than adding to them, so the map
 * is written from `deno.json` at each build, each `npm:`/`jsr:` package with its subpaths too (as
 * `deno.json` gives them implicitly) and relative targets rebased on `dist/`.
 */
const writeWorkersImportMap = [
  `const { imports } = JSON.parse(Deno.readTextFileSync("deno.json")), map = {};`,
  `for (const [name, to] of Object.entries(imports)) {`,
  `map[name] = to.startsWith(".") ? "../" + to : to;`,
  `if (/^(npm|jsr):/.test(to) && !name.endsWith("/")) map[name + "/"] = to.replace(/^(npm|jsr):\\/?/, "$1:/") + "/";`,
  `}`,
  `map.postgres += "/cf";`,
  `Deno.mkdirSync("dist", { recursive: true });`,
  `Deno.writeTextFileSync("${workersImportMap}", JSON.stringify({ imports: map }, null, 2));`,
].join(" ");

/**
 * The build tasks of a generated project, per runtime: `deno bundle` of the entry point, leaving
 * out Node's built-ins on Workers (given by `nodejs_compat`) and `cloudflare:sockets`. The Workers
 * bundle maps `postgres` to the Workers build of kit's patched driver (`@kit/postgres/cf`, through
 * an import map written from `deno.json`), and `DENO_CONDITIONS=workerd` picks the Workers builds
 * of the npm packages that have one (`@upstash/redis`).
 */
export function buildTasks(selected: readonly Runtime[]): Record<string, string> {
  return {
    ...(selected.includes("node")
      ? {
        "build:node": `deno bundle --platform node -o ${bundles.node} src/main.node.ts`,
      }
      : {}),
    ...(selected.includes("workers")
      ? {
        "build:workers":
          `deno eval '${writeWorkersImportMap}' && DENO_CONDITIONS=workerd deno bundle --platform browser --import-map ${workersImportMap} --external "node:*" --external cloudflare:sockets -o ${bundles.workers} src/worker.ts`,
      }
      : {}),
  };
}
