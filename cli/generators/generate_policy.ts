import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { planPermission } from "./generate_message.ts";
import { checkContext } from "./generate_simple.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** The platform's list of explicit policies. */
export const accessPoliciesPath = "src/platform/auth/access-policies.ts";
const composePath = "src/platform/compose-application.ts";

function accessPoliciesFile(): string {
  return generatorTemplate("policy/access-policies.ts", {});
}

/**
 * Plans an explicit access policy of one permission (`--permission <element>.<verb>`, added to
 * the context's permissions when new): the policy, its spec, and its entry in the platform's
 * `access-policies.ts`, which the composition root passes to its access policy.
 */
export async function planPolicy(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  permission: string | undefined,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "policy name");
  if (permission === undefined || !/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(permission)) {
    throw new CliError(
      `kit generate policy needs --permission '<element>.<verb>' (appointment.cancel), not '${
        permission ?? ""
      }'`,
    );
  }
  const kebab = kebabOf(name);
  const path = `src/contexts/${context}/application/policies/${kebab}.policy.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Policy '${name}' exists already in context '${context}'`);
  }
  const policyName = `${camelOf(kebab)}Policy`;
  const listText = existsSync(join(root, accessPoliciesPath))
    ? await readFile(join(root, accessPoliciesPath), "utf8")
    : accessPoliciesFile();
  const entries = readRegion(listText, "policies", accessPoliciesPath);
  if (entries.includes(`${policyName},`)) {
    throw new CliError(`A policy named '${policyName}' is registered already`);
  }
  const writes: FileWrite[] = [...await planPermission(root, context, permission)];
  writes.push({
    path: accessPoliciesPath,
    contents: listedPolicy(listText, entries, context, kebab, policyName),
  });
  const compose = await composedPolicies(root);
  if (compose !== undefined) writes.push(compose);
  const policy = { context, name, kebab, permission, policyName };
  writes.push(
    { path, create: true, contents: policyFile(policy) },
    {
      path: `src/contexts/${context}/application/policies/${kebab}.policy.spec.ts`,
      create: true,
      contents: policySpec(policy),
    },
  );
  return await withDerived(root, config, writes);
}

/** The platform's list of policies with the policy's import and entry. */
function listedPolicy(
  listText: string,
  entries: readonly string[],
  context: string,
  kebab: string,
  policyName: string,
): string {
  const list = updateRegion(listText, "policy-imports", [
    ...readRegion(listText, "policy-imports", accessPoliciesPath),
    `import { ${policyName} } from "../../contexts/${context}/application/policies/${kebab}.policy.ts";`,
  ], accessPoliciesPath);
  return updateRegion(list, "policies", [...entries, `${policyName},`], accessPoliciesPath);
}

/** The composition root passing the list to its access policy, unless it does already. */
async function composedPolicies(root: string): Promise<FileWrite | undefined> {
  const compose = await readFile(join(root, composePath), "utf8");
  const registered = readRegion(compose, "access-policies", composePath);
  if (registered.includes("policies,")) return undefined;
  const next = updateRegion(compose, "policy-imports", [
    ...readRegion(compose, "policy-imports", composePath),
    `import { policies } from "./auth/access-policies.ts";`,
  ], composePath);
  return {
    path: composePath,
    contents: updateRegion(next, "access-policies", [...registered, "policies,"], composePath),
  };
}

/** A policy's names: the class, the permission it decides, the exported policy. */
interface PolicyNames {
  readonly context: string;
  readonly name: string;
  readonly kebab: string;
  readonly permission: string;
  readonly policyName: string;
}

function policyFile({ context, name, permission, policyName }: PolicyNames): string {
  return generatorTemplate("policy/policy.ts", {
    permissions: `${camelOf(context)}Permissions`,
    context,
    name,
    permission,
    policyName,
  });
}

function policySpec({ context, name, kebab, permission, policyName }: PolicyNames): string {
  return generatorTemplate("policy/policy.spec.ts", {
    permissions: `${camelOf(context)}Permissions`,
    context,
    policyName,
    kebab,
    name,
    permission,
  });
}
