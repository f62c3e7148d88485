/**
 * Writes `embedded.ts`: every template under `project/` (a file of a generated project, `$token$`
 * in its path and contents) as a string, by its path from `project/`, so that the published CLI
 * carries them without reading files beside its modules. The check fixtures (files kit derives or
 * computes in a project, kept here only so that the templates type-check in place) are left out.
 * `deno task templates:embed` runs it; `embed_test.ts` fails while `embedded.ts` differs from what
 * it would write.
 *
 * @module
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder of the templates: the layout of a generated project. */
export const templatesRoot: string = fileURLToPath(new URL("./project/", import.meta.url));

/** The module `embed.ts` writes. */
export const embeddedPath: string = fileURLToPath(new URL("./embedded.ts", import.meta.url));

/**
 * Files under `project/` that are not templates: what kit writes from code in a project
 * (`kit.config.json`) or derives (a context's barrels), kept so that the templates importing
 * them type-check.
 */
export const checkFixtures: ReadonlySet<string> = new Set([
  "kit.config.json",
  "src/contexts/$name$/$name$.declarations.ts",
  "src/contexts/$name$/$name$.dependencies.ts",
]);

/** The path of every template under `project/`, sorted. */
export function templatePaths(): string[] {
  const paths: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else paths.push(relative(templatesRoot, path));
    }
  };
  walk(templatesRoot);
  return paths.filter((path) => !checkFixtures.has(path)).sort();
}

/**
 * The text of `embedded.ts` for the templates as they are now, formatted as `deno fmt` leaves it
 * (with the workspace's settings, through stdin).
 */
export async function embeddedModule(): Promise<string> {
  const entries = templatePaths().map((path) =>
    `  ${JSON.stringify(path)}:\n    ${
      JSON.stringify(readFileSync(join(templatesRoot, path), "utf8"))
    },\n`
  );
  const text = [
    "// Written by cli/templates/embed.ts (`deno task templates:embed`) from cli/templates/project/.\n",
    "// Regenerate, never edit by hand.\n\n",
    "/** The templates of a generated project, by path from `cli/templates/project/`. */\n",
    "export const embeddedTemplates: Readonly<Record<string, string>> = {\n",
    ...entries,
    "};\n",
  ].join("");
  return await formatted(text);
}

/** `text` as `deno fmt` formats a TypeScript module under the workspace's settings. */
async function formatted(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "ts", "-"],
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) throw new Error(`deno fmt failed: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

if (import.meta.main) {
  writeFileSync(embeddedPath, await embeddedModule());
  console.log(`${embeddedPath}: ${templatePaths().length} templates`);
}
