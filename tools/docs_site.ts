/**
 * Builds or serves the documentation site: VitePress (pinned in tools/docs_site/package.json, its
 * tree in package-lock.json) run by Node over the pages of docs/. The packages are installed with
 * `npm ci` on first use, and again whenever package-lock.json changes; after that the build needs
 * no network.
 *
 * ```sh
 * deno task docs:site   # builds into tools/docs_site/.vitepress/dist
 * deno task docs:dev    # serves the pages at http://localhost:5173, rebuilt on every change
 * ```
 *
 * @module
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The site's folder: package.json, package-lock.json, .vitepress/config.mts, node_modules. */
export const siteFolder: string = fileURLToPath(new URL("./docs_site/", import.meta.url));

/** Where `deno task docs:site` writes the site. */
export const defaultOutDir: string = join(siteFolder, ".vitepress", "dist");

const marker = join(siteFolder, "node_modules", ".kit-package-lock.sha256");

async function lockHash(): Promise<string> {
  const lock = await readFile(join(siteFolder, "package-lock.json"));
  const digest = await crypto.subtle.digest("SHA-256", new Uint8Array(lock));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Installs the site's packages with `npm ci` unless the installed tree is the one package-lock.json
 * describes (a hash of it kept in node_modules after a successful install).
 *
 * @returns Whether it installed.
 * @throws {Error} When npm fails, with its output.
 */
export async function ensureInstalled(): Promise<boolean> {
  const wanted = await lockHash();
  if (existsSync(marker) && (await readFile(marker, "utf8")).trim() === wanted) return false;
  const output = await new Deno.Command("npm", {
    args: ["ci", "--no-audit", "--no-fund", "--loglevel=error"],
    cwd: siteFolder,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    const text = new TextDecoder().decode(output.stderr) + new TextDecoder().decode(output.stdout);
    throw new Error(`npm ci in ${siteFolder} failed:\n${text}`);
  }
  await writeFile(marker, wanted + "\n");
  return true;
}

/** What a build printed and where it wrote the site. */
export interface SiteBuild {
  /** The folder holding index.html, the pages and assets/. */
  readonly outDir: string;
  /** VitePress's output, stdout and stderr. */
  readonly output: string;
  /** The lines of the output that warn (a language not loaded, a chunk too large, a dead link). */
  readonly warnings: readonly string[];
}

const vitepress = (): string =>
  join(siteFolder, "node_modules", "vitepress", "bin", "vitepress.js");

/**
 * Builds the site from docs/ into `outDir` (installing the packages first when needed).
 *
 * @param outDir Where the site is written; by default tools/docs_site/.vitepress/dist.
 * @returns The folder and what VitePress printed, with its warnings.
 * @throws {Error} When the build fails (a dead link, a page Vue cannot compile), with its output.
 */
export async function buildSite(outDir: string = defaultOutDir): Promise<SiteBuild> {
  await ensureInstalled();
  const result = await new Deno.Command("node", {
    args: [vitepress(), "build", "--outDir", outDir],
    cwd: siteFolder,
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(result.stdout) + new TextDecoder().decode(result.stderr);
  if (!result.success) throw new Error(`vitepress build failed:\n${output}`);
  const apiOutput = await buildApiPages(outDir);
  const warnings = (output + apiOutput).split("\n").filter((line) =>
    /warn|\(!\)|not loaded|dead link|deprecat/i.test(line)
  );
  return { outDir, output: output + apiOutput, warnings };
}

/** The packages whose API the site shows, by folder: each page set is `/api/<folder>/`. */
export const apiPackages: readonly string[] = ["kernel", "http", "jobs", "drizzle", "knex"];

/**
 * Writes each package's API pages with `deno doc --html` (every entry of its deno.json, so the
 * pages are the published API as it is now, never copied) into `<outDir>/api/<folder>/`.
 *
 * @returns What `deno doc` printed.
 * @throws {Error} When `deno doc` fails, with its output.
 */
export async function buildApiPages(outDir: string): Promise<string> {
  const repository = join(siteFolder, "..", "..");
  let printed = "";
  for (const folder of apiPackages) {
    const config = JSON.parse(await readFile(join(repository, folder, "deno.json"), "utf8")) as {
      name: string;
      exports: Record<string, string>;
    };
    const entries = Object.values(config.exports).map((file) => join(repository, folder, file));
    await mkdir(join(outDir, "api", folder), { recursive: true });
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["doc", "--html", `--name=${config.name}`, `--output=${join(outDir, "api", folder)}`]
        .concat(entries),
      cwd: repository,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(result.stdout) + new TextDecoder().decode(result.stderr);
    if (!result.success) throw new Error(`deno doc --html of ${config.name} failed:\n${text}`);
    // A dependency's own optional types (drizzle-orm's mysql2) are not kit's pages: left out.
    printed += text.split("\n").filter((line) =>
      !/Failed resolving types\..*registry\.npmjs\.org/.test(line)
    ).join("\n");
  }
  return printed;
}

if (import.meta.main) {
  const command = Deno.args[0];
  if (command === "build") {
    const started = performance.now();
    const build = await buildSite(Deno.args[1] ?? defaultOutDir);
    console.log(build.output.trim());
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (build.warnings.length > 0) {
      console.error(`the build warned:\n${build.warnings.join("\n")}`);
      Deno.exit(1);
    }
    console.log(`site written to ${build.outDir} in ${seconds} s`);
  } else if (command === "dev") {
    await ensureInstalled();
    const child = new Deno.Command("node", {
      args: [vitepress(), "dev", ...Deno.args.slice(1)],
      cwd: siteFolder,
    }).spawn();
    Deno.exit((await child.status).code);
  } else {
    console.error("usage: deno run -A tools/docs_site.ts build [outDir] | dev [vitepress options]");
    Deno.exit(2);
  }
}
