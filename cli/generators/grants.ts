import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf } from "../project/kit_config.ts";

/** The platform's grants: which role holds which permissions. */
export const grantsPath = "src/platform/auth/role.ts";

/**
 * Plans granting a context's permission to a role in the platform's grants (the role added when
 * it is new, the context's permissions imported when they are not yet): `kit generate command
 * ... --permission loan.open --grant lender`.
 */
export async function planGrant(
  root: string,
  context: string,
  role: string,
  permission: string,
): Promise<FileWrite> {
  const text = await readFile(join(root, grantsPath), "utf8");
  const permissions = `${camelOf(context)}Permissions`;
  const granted = `${permissions}["${permission}"]`;
  const entries = readRegion(text, "grants", grantsPath);
  const index = entries.findIndex((entry) => entry.startsWith(`"${role}":`));
  const held = index === -1 ? [] : grantedIn(entries[index]!);
  const next = `"${role}": [${[...new Set([...held, granted])].join(", ")}],`;
  const updated = index === -1
    ? [...entries, next]
    : entries.map((entry, i) => i === index ? next : entry);
  const imports = readRegion(text, "permission-imports", grantsPath);
  const importLine =
    `import { ${permissions} } from "../../contexts/${context}/${context}.permissions.ts";`;
  const withImport = imports.some((line) => line.includes(`{ ${permissions} }`))
    ? text
    : updateRegion(text, "permission-imports", [...imports, importLine], grantsPath);
  return {
    path: grantsPath,
    contents: updateRegion(withImport, "grants", updated, grantsPath),
  };
}

/** The permissions a grants entry (`"lender": [lendingPermissions["loan.open"]],`) holds. */
function grantedIn(entry: string): string[] {
  const list = /^"[^"]+":\s*\[(.*)\],?$/s.exec(entry);
  if (list === null) {
    throw new CliError(
      `'${grantsPath}' has a grant kit cannot read in its grants region: ${entry.slice(0, 80)}`,
    );
  }
  return list[1]!.split(",").map((item) => item.trim()).filter((item) => item.length > 0);
}
