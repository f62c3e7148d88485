import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { checkKebab, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";

/**
 * Plans a route group of a context: a prefix, the context's tag, and its guard (`Authenticated`,
 * or `HasRole(role)` with `--role`, adding a new role to the platform's grants), and a spec.
 */
export async function planRouteGroup(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: { role?: string },
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "route group name");
  if (options.role !== undefined) checkKebab(options.role, "role");
  const kebab = kebabOf(name).replace(/-routes$/, "");
  const path = `src/contexts/${context}/presentation/http/${kebab}.routes.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Route group '${name}' exists already in context '${context}'`);
  }
  const guard = options.role === undefined ? "Authenticated" : `HasRole("${options.role}")`;
  const writes: FileWrite[] = [
    {
      path,
      create: true,
      contents: `import { ${
        options.role === undefined ? "Authenticated" : "HasRole"
      }, RouteGroup } from "@kit/http";

/** The routes under /${kebab}, for ${
        options.role === undefined ? "identified callers" : `callers with the role ${options.role}`
      }. */
@RouteGroup({ prefix: "/${kebab}", tags: ["${context}"], guards: [${guard}] })
export class ${name} {}
`,
    },
    {
      path: `src/contexts/${context}/presentation/http/${kebab}.routes.spec.ts`,
      create: true,
      contents: `import assert from "node:assert/strict";
import { resolveGroup } from "@kit/http";
import { ${name} } from "./${kebab}.routes.ts";

Deno.test("${name} prefixes its routes with /${kebab} and guards them", () => {
  const group = resolveGroup(${name});
  assert.equal(group.prefix, "/${kebab}");
  assert.deepEqual(group.tags, ["${context}"]);
  assert.equal(group.guards.length, 1);
});
`,
    },
  ];
  if (options.role !== undefined) {
    const rolePath = "src/platform/auth/role.ts";
    const text = await readFile(join(root, rolePath), "utf8");
    const grants = readRegion(text, "grants", rolePath);
    if (!grants.some((line) => line.startsWith(`"${options.role}":`))) {
      writes.push({
        path: rolePath,
        contents: updateRegion(text, "grants", [...grants, `"${options.role}": [],`], rolePath),
      });
    }
  }
  return await withDerived(root, config, writes);
}
