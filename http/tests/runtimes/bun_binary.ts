/**
 * Finds Bun for the runtime tests: `BUN_PATH`, else the npm `bun` package installed once under
 * `.kit/runtimes/bun` (as the workerd test installs miniflare), else `bun` on `PATH`; when none is
 * there it installs the npm package (its platform binary comes from npm as an optional dependency).
 */
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The Bun release the tests install from npm. */
const bunVersion = "1.4.5";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const local = join(root, ".kit", "runtimes", "bun");

/** Bun's path, or why there is none (npm could not install it). */
export type BunBinary = { readonly path: string } | { readonly missing: string };

async function runs(command: string, args: string[], cwd = root): Promise<string | undefined> {
  try {
    const output = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    if (output.code === 0) return undefined;
    return new TextDecoder().decode(output.stderr).trim() || `exit code ${output.code}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Finds Bun, installing the npm `bun` package under `.kit/runtimes/bun` if it is nowhere. */
export async function findBun(): Promise<BunBinary> {
  const configured = Deno.env.get("BUN_PATH");
  if (configured) return { path: configured };
  const installed = join(local, "node_modules", ".bin", "bun");
  if (existsSync(installed) && await runs(installed, ["--version"]) === undefined) {
    return { path: installed };
  }
  if (await runs("bun", ["--version"]) === undefined) return { path: "bun" };
  // Test files run in parallel: each installs in a folder of its own and moves it into place, so
  // two installs never share a folder; the first to move wins and the other's copy is removed.
  const staging = `${local}.${crypto.randomUUID().slice(0, 8)}`;
  await mkdir(staging, { recursive: true });
  try {
    await writeFile(
      join(staging, "package.json"),
      JSON.stringify({ private: true, type: "module" }),
    );
    const failed = await runs("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `bun@${bunVersion}`,
    ], staging);
    if (failed !== undefined) return { missing: `npm install bun@${bunVersion} failed: ${failed}` };
    if (await runs(installed, ["--version"]) !== undefined) {
      // Nothing usable in place (an install cut short): replaced by this one.
      await rm(local, { recursive: true, force: true });
    }
    await rename(staging, local).catch(() => {});
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const failed = await runs(installed, ["--version"]);
  return failed === undefined
    ? { path: installed }
    : { missing: `bun@${bunVersion} installed but does not run: ${failed}` };
}
