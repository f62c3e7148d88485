/**
 * Writes the generated reference pages of the docs: docs/reference/cli.md from what the `kit`
 * command says of itself (`kit --help --json`, and `kit generate --help --json` for the kinds of
 * the generator catalog) and docs/reference/error-codes.md from the codes kit's packages declare
 * (the pipeline's and the kernel's table, the jobs dashboard's `defineErrorCodes`, and the codes of
 * the kernel's refusal classes). Both are formatted by `deno fmt`, so that the committed page and
 * the generator's output compare byte for byte; tools/docs_reference_test.ts fails when they
 * differ.
 *
 * ```sh
 * deno task docs:reference            # rewrites both pages
 * deno task docs:reference --check    # writes nothing, fails naming each stale page
 * ```
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliReference } from "./docs_reference_cli.ts";
import { errorCodeReference } from "./docs_reference_errors.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * Formats Markdown as `deno fmt` does in this repository (its line width, its table padding).
 *
 * @param markdown The page as generated.
 * @returns The page as `deno fmt` leaves it.
 * @throws {Error} When `deno fmt` fails.
 */
export async function formatMarkdown(markdown: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const output = await child.output();
  if (!output.success) {
    throw new Error(`deno fmt failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/** The generated pages, by their path in the repository, as the generator writes them. */
export async function referencePages(): Promise<Map<string, string>> {
  return new Map([
    ["docs/reference/cli.md", await formatMarkdown(await cliReference(root))],
    ["docs/reference/error-codes.md", await formatMarkdown(await errorCodeReference(root))],
  ]);
}

/**
 * The generated pages whose committed text differs from what the generator writes.
 *
 * @returns Each stale page's path (a missing page counts).
 */
export async function stalePages(): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, text] of await referencePages()) {
    const committed = await readFile(join(root, path), "utf8").catch(() => undefined);
    if (committed !== text) stale.push(path);
  }
  return stale;
}

if (import.meta.main) {
  if (Deno.args.includes("--check")) {
    const stale = await stalePages();
    for (const path of stale) {
      console.error(`${path} is stale: deno task docs:reference rewrites it`);
    }
    Deno.exit(stale.length === 0 ? 0 : 1);
  }
  for (const [path, text] of await referencePages()) {
    await writeFile(join(root, path), text);
    console.log(`wrote ${path}`);
  }
}
