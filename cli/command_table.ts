/**
 * The commands of the `kit` CLI, one entry each: its name, its help, its options and what it
 * runs. Each loads its module when it runs: `kit --version`, `kit hook pre-tool-use` (run before
 * every tool call of an agent) and a `kit docs --check` answered from its cache do not pay for the
 * parser and the generators. `kit --help` is their help lines, in this order.
 *
 * @module
 */
import { resolve } from "node:path";
import { CliError } from "./cli_error.ts";
import { type Command, command } from "./command.ts";

const init = command({
  name: "init",
  help:
    `  init [dir] --context <name>:<kind> ... [--queue database|redis|memory] [--runtime deno|node|workers ...] [--orm postgres|drizzle|knex] [--link <kit checkout>] [--no-git] [--declarations decorators|builder]
                               a new project: --context once per bounded context, its kind core
                               (the business's edge), supporting or generic (bought or commodity),
                               e.g. --context catalog:core --context billing:supporting; --queue
                               where the jobs wait: database (PostgreSQL, the default), redis
                               (REDIS_URL) or memory (one process, nothing kept); --runtime once
                               per runtime it runs on, an entry point each: deno (src/main.ts, the
                               default), node (src/main.node.ts, deno task build:node), workers
                               (src/worker.ts and wrangler.toml, deno task build:workers; jobs
                               enqueued to Upstash Redis, so the queue is redis); --orm what the
                               repositories, the unit of work, the outbox and the jobs are written
                               with: postgres (postgres.js, the default), drizzle (Drizzle on the
                               same client; tables declared in the context and listed in
                               src/platform/database/schema.ts) or knex (Knex on pg), each with
                               kit's numbered SQL migrations and each context's jobs enqueued in
                               the ORM's transaction (the queue database); --link runs the
                               project on a kit checkout instead of the JSR packages; --no-git
                               makes no git repository (without it: a new repository, every file
                               in its first commit "kit init", unless the directory is in one);
                               --declarations how generators declare classes: decorators (the
                               default: @Handles, @Background...) or builder (no decorator: each
                               class declared in its context's module file, builder.handler(..),
                               builder.backgroundJob(..)...), written to kit.config.json`,
  positionals: true,
  options: {
    context: { type: "string", multiple: true },
    queue: { type: "string" },
    link: { type: "string" },
    runtime: { type: "string", multiple: true },
    orm: { type: "string" },
    "no-git": { type: "boolean" },
    "package-manager": { type: "string" },
    declarations: { type: "string" },
  },
  async run({ values, positionals, cwd }) {
    if (values["package-manager"] !== undefined) {
      throw new CliError(
        "--package-manager is no option of kit init: a kit project runs its tasks with deno task (with --runtime node, deno task build:node bundles what node runs)",
      );
    }
    const target = resolve(cwd, positionals[0] ?? ".");
    const written = await (await import("./commands/init.ts")).initProject(target, {
      contexts: values.context ?? [],
      ...(values.queue ? { queue: values.queue } : {}),
      ...(values.link ? { link: values.link } : {}),
      ...(values.runtime ? { runtimes: values.runtime } : {}),
      ...(values.declarations === undefined ? {} : { declarations: values.declarations }),
      ...(values.orm !== undefined ? { orm: values.orm } : {}),
    });
    const initGit = await import("./commands/init_git.ts");
    const { note, next } = initGit.describeGitSetup(
      values["no-git"] ? undefined : await initGit.initGitRepository(target),
    );
    const dir = positionals[0] ?? ".";
    console.log(
      [
        `kit init: wrote ${written.length} files`,
        ...(note === undefined ? [] : [note]),
        "Next:",
        ...(dir === "." ? [] : [`  cd ${dir}`]),
        ...(next === undefined ? [] : [`  ${next}`]),
        "  deno task dev            (the API, its docs at /docs, a development token printed)",
        `  kit generate command ${
          (values.context ?? [])[0]?.split(":")[0] ?? "<context>"
        } <Name> --permission <name>   (kit generate --help: every kind)`,
      ].join("\n"),
    );
    return 0;
  },
});

const generate = command({
  name: "generate",
  help: `  generate <kind> <context> <Name> [options] [--local-only]
                               writes a part of a context; kit generate <kind> --help names the
                               kind's options, the shared files it may write, and an example
  generate --help [--json]     the kinds, their options and the shared files they write`,
  positionals: true,
  ownHelp: true,
  options: {
    help: { type: "boolean", short: "h" },
    json: { type: "boolean" },
    "local-only": { type: "boolean" },
    permission: { type: "string" },
    aggregate: { type: "string" },
    creates: { type: "boolean" },
    enqueues: { type: "string" },
    publishes: { type: "string" },
    grant: { type: "string" },
    group: { type: "string" },
    function: { type: "boolean" },
    path: { type: "string" },
    kind: { type: "string" },
    search: { type: "boolean" },
    command: { type: "string" },
    every: { type: "string" },
    role: { type: "string" },
    prefix: { type: "string" },
    status: { type: "string" },
    description: { type: "string" },
    deviation: { type: "boolean" },
    decorators: { type: "boolean" },
    update: { type: "boolean" },
    "starts-on": { type: "string" },
    handles: { type: "string", multiple: true },
    deadline: { type: "string", multiple: true },
  },
  async run({ values, positionals, cwd }) {
    if (values.help) return await generateHelp(positionals[0], values.json === true);
    const [kind, ...names] = positionals;
    if (kind === undefined) {
      throw new CliError(
        "Usage: kit generate <kind> <context> <Name> (kit generate --help lists kinds)",
      );
    }
    const written = await (await import("./commands/generate.ts")).generate(cwd, {
      kind,
      positionals: names,
      options: values,
    });
    for (const path of written) console.log(`wrote ${path}`);
    return 0;
  },
});

/** `kit generate --help`: the kinds (as JSON with `--json`), or the help of the kind `asked`. */
async function generateHelp(asked: string | undefined, json: boolean): Promise<number> {
  const { generatorKinds, kindHelp } = await import("./generators/catalog.ts");
  if (json) {
    console.log(JSON.stringify({ kinds: generatorKinds }, null, 2));
    return 0;
  }
  if (asked === undefined) {
    for (const k of generatorKinds) console.log(`${k.kind.padEnd(20)} ${k.summary}`);
    return 0;
  }
  const kind = generatorKinds.find((k) => k.kind === asked);
  if (kind === undefined) {
    throw new CliError(
      `Unknown kind '${asked}': one of ${generatorKinds.map((k) => k.kind).join(", ")}`,
    );
  }
  console.log(kindHelp(kind));
  return 0;
}

const workerScope = command({
  name: "worker-scope",
  help: `  worker-scope <context> [--worktree <path>] [--branch <name>] [--dry-run] [--json]`,
  positionals: true,
  options: {
    worktree: { type: "string" },
    branch: { type: "string" },
    "dry-run": { type: "boolean" },
    json: { type: "boolean" },
  },
  async run({ values, positionals, cwd }) {
    if (positionals[0] === undefined) {
      throw new CliError("Usage: kit worker-scope <context> [--dry-run] [--json]");
    }
    const scope = await import("./commands/worker_scope.ts");
    const briefing = await scope.workerScope(cwd, positionals[0], {
      ...(values.worktree ? { worktree: values.worktree } : {}),
      ...(values.branch ? { branch: values.branch } : {}),
      dryRun: values["dry-run"] === true,
    });
    console.log(values.json ? JSON.stringify(briefing, null, 2) : scope.formatBriefing(briefing));
    return 0;
  },
});

const docs = command({
  name: "docs",
  help:
    `  docs [--check | --watch]     regenerates the derived files (barrels, manifests, CONTEXT.md lists,
                               context map with the events each context consumes); --check writes
                               nothing and fails naming each stale file and its rule (verify runs
                               it); both fail on a conflict marker and on two migrations under one
                               number; --watch regenerates them again on every change under
                               src/contexts/ or to kit.config.json, one line per regeneration,
                               until stopped (deno task dev runs it)`,
  options: { check: { type: "boolean" }, watch: { type: "boolean" } },
  async run({ values, cwd }) {
    if (values.check && values.watch) throw new CliError("Use --check or --watch, not both");
    if (values.watch) {
      await (await import("./commands/docs_watch.ts")).watchDocs(cwd);
      return 0;
    }
    const written = await (await import("./commands/docs.ts")).docs(cwd, {
      check: values.check === true,
    });
    if (values.check) console.log("kit docs --check: every derived file is current");
    else {
      console.log(
        written.length === 0
          ? "kit docs: every derived file is current"
          : `kit docs: wrote ${written.join(", ")}`,
      );
    }
    return 0;
  },
});

const dev = command({
  name: "dev",
  help:
    `  dev                          deno task dev: kit docs --watch beside the server restarted on every
                               change (deno run --watch src/main.ts), until SIGINT or SIGTERM,
                               which end both (the server's graceful shutdown first, 10 s at most)`,
  async run({ positionals, cwd }) {
    if (positionals.length > 0) throw new CliError("Usage: kit dev");
    return await (await import("./commands/dev.ts")).dev(cwd);
  },
});

const depcruiseConfig = command({
  name: "depcruise-config",
  help: `  depcruise-config [--check | --write]
                               .dependency-cruiser.cjs derived from kit.config.json: printed on
                               stdout; --check fails when the file is missing or stale (verify runs
                               it); --write rewrites it (a hand edit is lost: the file is derived)`,
  options: { check: { type: "boolean" }, write: { type: "boolean" } },
  async run({ values, cwd }) {
    if (values.check && values.write) throw new CliError("Use --check or --write, not both");
    const mode = values.write ? "write" : values.check ? "check" : "print";
    const result = await (await import("./commands/depcruise_config.ts")).depcruiseConfigCommand(
      cwd,
      mode,
    );
    if (mode === "print") console.log(result.text.trimEnd());
    else {
      console.log(
        result.wasCurrent
          ? "kit depcruise-config: .dependency-cruiser.cjs is current"
          : "kit depcruise-config: wrote .dependency-cruiser.cjs",
      );
    }
    return 0;
  },
});

const check = command({
  name: "check",
  help:
    `  check unused                 files no entry point reaches, exports nobody imports, import-map
                               entries nobody imports: knip's check, for a Deno project (verify
                               runs it); reads entry, ignore, ignoreDependencies and
                               ignoreExportsUsedInFile of knip.json, keeps exports tagged @public`,
  positionals: true,
  options: {},
  async run({ positionals, cwd }) {
    if (positionals[0] !== "unused" || positionals.length > 1) {
      throw new CliError("Usage: kit check unused");
    }
    const unused = await import("./check/unused.ts");
    const report = await unused.findUnused(cwd);
    const found = report.files.length + report.exports.length + report.dependencies.length;
    if (found === 0) {
      console.log("kit check unused: no unused file, export or dependency");
      return 0;
    }
    console.log(unused.formatUnused(report));
    throw new CliError(
      `check unused: ${report.files.length} unused file(s), ${report.exports.length} unused export(s), ${report.dependencies.length} unused dependenc${
        report.dependencies.length === 1 ? "y" : "ies"
      }`,
    );
  },
});

const status = command({
  name: "status",
  help:
    `  status                       slices by status and owner, what is left in each context, and the
                               merge order of the contexts (upstream first; a cycle is named)`,
  async run({ cwd }) {
    console.log(await (await import("./commands/status.ts")).status(cwd));
    return 0;
  },
});

const resolveCommand = command({
  name: "resolve",
  help: `  resolve [--renumber <migration>]...
                               after a merge or rebase stopped on conflicts: rewrites the derived
                               files (barrels, manifests, context map, .dependency-cruiser.cjs)
                               from the merged sources and keeps both sides' entries in kit's
                               regions (permissions, error codes, registrations, migrations);
                               rewrites the kit parts of a route or spec that both sides changed
                               from the merged message and handler (as route --update does);
                               names every conflict outside them (exit 1; merge them by hand and
                               run it again, before or after git add); moves on top a migration
                               whose number one already on the trunk has (or the one --renumber
                               names: docs/workflow.md, section 8);
                               fails while a file holds a conflict marker; stages nothing`,
  options: { renumber: { type: "string", multiple: true } },
  async run({ values, cwd }) {
    const resolver = await import("./commands/resolve.ts");
    const resolution = await resolver.resolveConflicts(cwd, { renumber: values.renumber ?? [] });
    console.log(resolver.formatResolution(resolution));
    return resolution.left.length > 0 || resolution.markers.length > 0 ? 1 : 0;
  },
});

const token = command({
  name: "token",
  help: `  token --sub <id> [--role <r>]... [--tenant <t>]... [--scope <s>]... [--expires 1h]
                               prints a bearer token the project's API accepts (JWT_SECRET, or the
                               development secret of deno task dev without DATABASE_URL; issuer and
                               audience as the platform verifies them): TOKEN=$(kit token ...)`,
  options: {
    sub: { type: "string" },
    role: { type: "string", multiple: true },
    tenant: { type: "string", multiple: true },
    scope: { type: "string", multiple: true },
    expires: { type: "string" },
  },
  async run({ values, cwd, env }) {
    if (values.sub === undefined) {
      throw new CliError(
        "Usage: kit token --sub <id> [--role <r>]... [--tenant <t>]... [--scope <s>]... [--expires 1h]",
      );
    }
    console.log(
      await (await import("./commands/token.ts")).signProjectToken(cwd, {
        sub: values.sub,
        roles: values.role ?? [],
        tenants: values.tenant ?? [],
        scopes: values.scope ?? [],
        ...(values.expires ? { expires: values.expires } : {}),
      }, env),
    );
    return 0;
  },
});

const slice = command({
  name: "slice",
  help:
    `  slice add <context> <contract|skeleton|slice> <title> [--start-with <text>] [--depends-on <#,#>] [--owner <who>]
                               appends a row to docs/architecture/slices.md (the next number,
                               todo); the conductor's only: refused in a worker's worktree
  slice done <#>...            marks rows done; refused for a row whose dependencies are not done`,
  positionals: true,
  options: {
    "start-with": { type: "string" },
    "depends-on": { type: "string" },
    owner: { type: "string" },
  },
  async run({ values, positionals, cwd }) {
    const [action, ...args] = positionals;
    const slices = await import("./commands/slice.ts");
    if (action === "done") {
      const numbers = args.map((arg) => {
        if (!/^\d+$/.test(arg)) throw new CliError(`slice done: '${arg}' is not a row number`);
        return Number(arg);
      });
      for (const row of await slices.markSlicesDone(cwd, numbers)) {
        console.log(`kit slice: row ${row.number} (${row.slice}) done`);
      }
      return 0;
    }
    if (action !== "add" || args.length !== 3) {
      throw new CliError(
        "Usage: kit slice add <context> <contract|skeleton|slice> <title> [--start-with <text>] [--depends-on <#,#>] [--owner <who>] | kit slice done <#>...",
      );
    }
    const dependsOn = values["depends-on"]?.split(",").map((n) => n.trim()) ?? [];
    const bad = dependsOn.find((n) => !/^\d+$/.test(n));
    if (bad !== undefined) {
      throw new CliError(`slice add: --depends-on '${bad}' is not a row number`);
    }
    const row = await slices.addSlice(cwd, {
      context: args[0]!,
      kind: args[1]!,
      title: args[2]!,
      ...(values["start-with"] ? { startWith: values["start-with"] } : {}),
      ...(dependsOn.length > 0 ? { dependsOn: dependsOn.map(Number) } : {}),
      ...(values.owner ? { owner: values.owner } : {}),
    });
    console.log(`kit slice: row ${row.number} (${row.slice}) added, todo`);
    return 0;
  },
});

const todo = command({
  name: "todo",
  help:
    `  todo <context>               the TODO(domain), TODO(platform) and it.todo of a context, as
                               file:line and the marker's text, in line order`,
  async run({ positionals, cwd }) {
    if (positionals[0] === undefined) throw new CliError("Usage: kit todo <context>");
    const lines = await (await import("./commands/status.ts")).todos(cwd, positionals[0]);
    for (const line of lines) console.log(line);
    return 0;
  },
});

const hook = command({
  name: "hook",
  help:
    `  hook pre-tool-use            the coding-agent plugin's pre-write hook: reads Claude Code's hook
                               input on stdin, refuses what a worker scope does not allow`,
  async run({ positionals }) {
    if (positionals[0] !== "pre-tool-use") throw new CliError("Usage: kit hook pre-tool-use");
    const answer = await (await import("./commands/hook.ts")).preToolUseHook(
      await new Response(Deno.stdin.readable).text(),
    );
    if (answer) console.log(answer);
    return 0;
  },
});

/** Every command, in the order of `kit --help`. */
export const commandTable: readonly Command[] = [
  init,
  generate,
  workerScope,
  docs,
  dev,
  depcruiseConfig,
  check,
  status,
  resolveCommand,
  token,
  slice,
  todo,
  hook,
];
