/**
 * A glob of project paths as a regular expression: `**` matches any folders (none included), `*`
 * any characters but `/`, `?` one of them; everything else is literal.
 *
 * @param glob The glob, relative to the project root (`src/**\/*.spec.ts`).
 * @returns A regular expression matching whole relative paths.
 * @example
 * ```ts
 * import { globToRegExp } from "./glob.ts";
 * console.assert(globToRegExp("apps/*\/main.ts").test("apps/worker/main.ts"));
 * console.assert(globToRegExp("src/**\/*.spec.ts").test("src/a.spec.ts"));
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  let pattern = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (glob.startsWith("**/", i)) {
      pattern += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      pattern += ".*";
      i += 1;
    } else if (char === "*") pattern += "[^/]*";
    else if (char === "?") pattern += "[^/]";
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}
