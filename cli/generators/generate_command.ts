import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";

/** Plans a command: the message, its handler, its spec, and the context's derived lists. */
export async function planCommand(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: { permission?: string },
): Promise<FileWrite[]> {
  if (!config.contexts.some((c) => c.name === context)) {
    throw new CliError(
      `Unknown context '${context}': the contexts are ${
        config.contexts.map((c) => c.name).join(", ") || "none"
      }`,
    );
  }
  checkPascal(name, "command name");
  const permission = options.permission;
  if (permission !== undefined && !/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(permission)) {
    throw new CliError(
      `Invalid --permission '${permission}': use '<element>.<verb>' (appointment.cancel)`,
    );
  }
  const kebab = kebabOf(name);
  const camel = camelOf(context);
  const dir = `src/contexts/${context}/application/commands/${kebab}`;
  if (existsSync(join(root, dir))) {
    throw new CliError(`Command '${name}' exists already in context '${context}'`);
  }

  const writes: FileWrite[] = [];

  if (permission !== undefined) {
    const permissionsPath = `src/contexts/${context}/${context}.permissions.ts`;
    const text = await readFile(join(root, permissionsPath), "utf8");
    const existing = readRegion(text, "permissions", permissionsPath);
    if (!existing.some((line) => line.startsWith(`"${permission}"`))) {
      writes.push({
        path: permissionsPath,
        contents: updateRegion(text, "permissions", [
          ...existing,
          `"${permission}": { description: "TODO(domain): who may ${
            permission.split(".").reverse().join(" ")
          }" },`,
        ], permissionsPath),
      });
    }
  }

  const command = permission === undefined
    ? `import { type Actor, Command } from "@kit/kernel";

/** ${name}: what the actor asks of the ${context} context. */
export class ${name} extends Command<void> {
  constructor(actor: Actor) {
    super(actor);
  }
}
`
    : `import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { ${camel}Permissions } from "../../../${context}.permissions.ts";

/** ${name}: what the actor asks of the ${context} context; needs '${permission}'. */
@Requires(${camel}Permissions["${permission}"])
export class ${name} extends AuthorizedCommand<void> {
  constructor(actor: Actor) {
    super(actor);
  }
}
`;
  const handler = `import { Handles } from "@kit/kernel";
import { ${name} } from "./${kebab}.command.ts";

/** Runs ${name}. */
@Handles(${name})
export class ${name}Handler {
  handle(_command: ${name}): Promise<void> {
    // TODO(domain): load the aggregate, let it decide, save it.
    return Promise.resolve();
  }
}
`;
  const spec = permission === undefined
    ? `import { composeApplication, userActor } from "@kit/kernel";
import { ${camel}Module } from "../../../${context}.module.ts";
import { ${name} } from "./${kebab}.command.ts";

Deno.test("${name} runs through the command bus", async () => {
  const application = composeApplication({ modules: [${camel}Module] });
  await application.commands.execute(new ${name}(userActor("someone")));
});
`
    : `import assert from "node:assert/strict";
import { accessPolicy, composeApplication, ForbiddenError, userActor } from "@kit/kernel";
import { ${camel}Module } from "../../../${context}.module.ts";
import { ${camel}Permissions } from "../../../${context}.permissions.ts";
import { ${name} } from "./${kebab}.command.ts";

const application = composeApplication({
  modules: [${camel}Module],
  accessPolicy: accessPolicy({ grants: { granted: [${camel}Permissions["${permission}"]] } }),
});

Deno.test("${name} runs for an actor granted ${permission}", async () => {
  await application.commands.execute(new ${name}(userActor("someone", { roles: ["granted"] })));
});

Deno.test("${name} is refused to an actor without ${permission}", async () => {
  await assert.rejects(() => application.commands.execute(new ${name}(userActor("someone-else"))), ForbiddenError);
});
`;
  writes.push(
    { path: `${dir}/${kebab}.command.ts`, contents: command, create: true },
    { path: `${dir}/${kebab}.handler.ts`, contents: handler, create: true },
    { path: `${dir}/${kebab}.spec.ts`, contents: spec, create: true },
  );
  return await withDerived(root, config, writes);
}
