import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { checkKebab, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** Words whose plural no rule makes (and those that are their own plural). */
const irregularPlurals: Readonly<Record<string, string>> = {
  person: "people",
  people: "people",
  child: "children",
  children: "children",
  man: "men",
  men: "men",
  woman: "women",
  women: "women",
  data: "data",
  staff: "staff",
  media: "media",
  info: "info",
  news: "news",
  series: "series",
  feedback: "feedback",
};

/**
 * The path segment of a resource's routes: the plural of its kebab name (`loan` → `loans`,
 * `address` → `addresses`, `category` → `categories`); a name already plural (`loans`) is kept.
 */
export function pluralPath(kebab: string): string {
  const last = kebab.split("-").at(-1)!;
  const head = kebab.slice(0, kebab.length - last.length);
  const irregular = irregularPlurals[last];
  if (irregular !== undefined) return `${head}${irregular}`;
  if (/us$/.test(last)) return `${head}${last}es`;
  if (/[^aeiou]is$/.test(last)) return `${head}${last.slice(0, -2)}es`;
  if (/[^s]s$/.test(last)) return kebab;
  if (/(s|x|z|ch|sh)$/.test(last)) return `${head}${last}es`;
  if (/[^aeiou]y$/.test(last)) return `${head}${last.slice(0, -1)}ies`;
  return `${head}${last}s`;
}

/**
 * Plans a route group of a context: a prefix (the plural of the resource its name names,
 * `LoanRoutes` → `/loans`, or `--prefix`), the context's tag, and its guard (`Authenticated`, or
 * `HasRole(role)` with `--role`, adding a new role to the platform's grants), and a spec.
 */
export async function planRouteGroup(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: { role?: string; prefix?: string },
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "route group name");
  checkRouteGroupOptions(config, options);
  const kebab = kebabOf(name).replace(/-routes$/, "");
  const prefix = options.prefix ?? `/${pluralPath(kebab)}`;
  const path = `src/contexts/${context}/presentation/http/${kebab}.routes.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Route group '${name}' exists already in context '${context}'`);
  }
  const writes: FileWrite[] = [
    { path, create: true, contents: groupFile(context, name, prefix, options.role) },
    {
      path: `src/contexts/${context}/presentation/http/${kebab}.routes.spec.ts`,
      create: true,
      contents: generatorTemplate("route-group/group.spec.ts", { name, kebab, prefix, context }),
    },
  ];
  if (options.role !== undefined) {
    const grant = await planRole(root, options.role);
    if (grant !== undefined) writes.push(grant);
  }
  return await withDerived(root, config, writes);
}

/** Refuses a builder-style project (no `@RouteGroup`), a malformed role and a malformed prefix. */
function checkRouteGroupOptions(
  config: KitConfig,
  options: { role?: string; prefix?: string },
): void {
  if (config.declarations === "builder") {
    throw new CliError(
      `This project declares without decorators ("declarations": "builder" in kit.config.json), and a route group is declared only by @RouteGroup, for controllers: a function route states its own path and security (kit generate route <context> <Command|Query> --function --path </path>)`,
    );
  }
  if (options.role !== undefined) checkKebab(options.role, "role");
  if (
    options.prefix !== undefined && !/^(\/[a-z0-9]+(-[a-z0-9]+)*)+$/.test(options.prefix)
  ) {
    throw new CliError(
      `Invalid --prefix '${options.prefix}': one or more /kebab-case segments, as /loans or /loan-offers`,
    );
  }
}

/** The group: its prefix, the context's tag and its guard (`HasRole(role)` or `Authenticated`). */
function groupFile(
  context: string,
  name: string,
  prefix: string,
  role: string | undefined,
): string {
  return generatorTemplate("route-group/group.ts", {
    guardImport: role === undefined ? "Authenticated" : "HasRole",
    prefix,
    callers: role === undefined ? "identified callers" : `callers with the role ${role}`,
    context,
    guard: role === undefined ? "Authenticated" : `HasRole("${role}")`,
    name,
  });
}

/** A new role in the platform's grants (granted nothing yet); none when it is there already. */
async function planRole(root: string, role: string): Promise<FileWrite | undefined> {
  const rolePath = "src/platform/auth/role.ts";
  const text = await readFile(join(root, rolePath), "utf8");
  const grants = readRegion(text, "grants", rolePath);
  if (grants.some((line) => line.startsWith(`"${role}":`))) return undefined;
  return {
    path: rolePath,
    contents: updateRegion(text, "grants", [...grants, `"${role}": [],`], rolePath),
  };
}
