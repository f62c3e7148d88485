/**
 * The `kit` command-line tool: `kit init`, `kit generate`, `kit --help`. This file only parses
 * flags; the work is in `commands/`.
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { CliError } from "./cli_error.ts";
import denoJson from "./deno.json" with { type: "json" };

/**
 * The commands, each loaded when it runs: `kit --version`, `kit hook pre-tool-use` (run before
 * every tool call of an agent) and a `kit docs --check` answered from its cache do not pay for
 * the parser and the generators.
 */
const commands = {
  unused: () => import("./check/unused.ts"),
  depcruise: () => import("./commands/depcruise_config.ts"),
  docs: () => import("./commands/docs.ts"),
  dev: () => import("./commands/dev.ts"),
  watch: () => import("./commands/docs_watch.ts"),
  generate: () => import("./commands/generate.ts"),
  init: () => import("./commands/init.ts"),
  initGit: () => import("./commands/init_git.ts"),
  resolve: () => import("./commands/resolve.ts"),
  slice: () => import("./commands/slice.ts"),
  status: () => import("./commands/status.ts"),
  workerScope: () => import("./commands/worker_scope.ts"),
  catalog: () => import("./generators/catalog.ts"),
  hook: () => import("./commands/hook.ts"),
  token: () => import("./commands/token.ts"),
};

const usage = `Usage: kit <command> [options]

Commands:
  init [dir] --context <name>:<kind> ... [--queue database|redis|memory] [--runtime deno|node|workers ...] [--link <kit checkout>] [--no-git]
                               a new project: --context once per bounded context, its kind core
                               (the business's edge), supporting or generic (bought or commodity),
                               e.g. --context catalog:core --context billing:supporting; --queue
                               where the jobs wait: database (PostgreSQL, the default), redis
                               (REDIS_URL) or memory (one process, nothing kept); --runtime once
                               per runtime it runs on, an entry point each: deno (src/main.ts, the
                               default), node (src/main.node.ts, deno task build:node), workers
                               (src/worker.ts and wrangler.toml, deno task build:workers; jobs
                               enqueued to Upstash Redis, so the queue is redis); --link runs the
                               project on a kit checkout instead of the JSR packages; --no-git
                               makes no git repository (without it: a new repository, every file
                               in its first commit "kit init", unless the directory is in one)
  generate <kind> <context> <Name> [options] [--local-only]
                               writes a part of a context; kit generate <kind> --help names the
                               kind's options, the shared files it may write, and an example
  generate --help [--json]     the kinds, their options and the shared files they write
  worker-scope <context> [--worktree <path>] [--branch <name>] [--dry-run] [--json]
  docs [--check | --watch]     regenerates the derived files (barrels, manifests, CONTEXT.md lists,
                               context map with the events each context consumes); --check writes
                               nothing and fails naming each stale file and its rule (verify runs
                               it); both fail on a conflict marker and on two migrations under one
                               number; --watch regenerates them again on every change under
                               src/contexts/ or to kit.config.json, one line per regeneration,
                               until stopped (deno task dev runs it)
  dev                          deno task dev: kit docs --watch beside the server restarted on every
                               change (deno run --watch src/main.ts), until SIGINT or SIGTERM,
                               which end both (the server's graceful shutdown first, 10 s at most)
  depcruise-config [--check | --write]
                               .dependency-cruiser.cjs derived from kit.config.json: printed on
                               stdout; --check fails when the file is missing or stale (verify runs
                               it); --write rewrites it (a hand edit is lost: the file is derived)
  check unused                 files no entry point reaches, exports nobody imports, import-map
                               entries nobody imports: knip's check, for a Deno project (verify
                               runs it); reads entry, ignore, ignoreDependencies and
                               ignoreExportsUsedInFile of knip.json, keeps exports tagged @public
  status                       slices by status and owner, what is left in each context, and the
                               merge order of the contexts (upstream first; a cycle is named)
  resolve [--renumber <migration>]...
                               after a merge or rebase stopped on conflicts: rewrites the derived
                               files (barrels, manifests, context map, .dependency-cruiser.cjs)
                               from the merged sources and keeps both sides' entries in kit's
                               regions (permissions, error codes, registrations, migrations);
                               names every conflict outside them (exit 1; merge them by hand and
                               run it again, before or after git add); moves on top a migration
                               whose number one already on the trunk has (or the one --renumber
                               names: docs/workflow.md, section 8);
                               fails while a file holds a conflict marker; stages nothing
  token --sub <id> [--role <r>]... [--tenant <t>]... [--scope <s>]... [--expires 1h]
                               prints a bearer token the project's API accepts (JWT_SECRET, or the
                               development secret of deno task dev without DATABASE_URL; issuer and
                               audience as the platform verifies them): TOKEN=$(kit token ...)
  slice add <context> <contract|skeleton|slice> <title> [--start-with <text>] [--depends-on <#,#>] [--owner <who>]
                               appends a row to docs/architecture/slices.md (the next number,
                               todo); the conductor's only: refused in a worker's worktree
  slice done <#>...            marks rows done; refused for a row whose dependencies are not done
  todo <context>               the TODO(domain), TODO(platform) and it.todo of a context, as
                               file:line and the marker's text, in line order
  hook pre-tool-use            the coding-agent plugin's pre-write hook: reads Claude Code's hook
                               input on stdin, refuses what a worker scope does not allow

Options:
  --help      this text (also after a command)
  --version   the version of kit`;

/** The usage lines of one command (its line and the lines continuing it), or none if unknown. */
function commandHelp(command: string): string | undefined {
  const lines = usage.split("\n");
  const entries: string[] = [];
  for (let start = 0; start < lines.length; start++) {
    const line = lines[start]!;
    if (!/^ {2}\S/.test(line)) continue;
    if (line.trim() !== command && !line.trim().startsWith(`${command} `)) continue;
    let end = start + 1;
    while (end < lines.length && /^ {4,}\S/.test(lines[end]!)) end++;
    const [synopsis, ...first] = line.trim().split(/ {2,}/);
    const summary = [...first, ...lines.slice(start + 1, end).map((l) => l.trim())].join(" ");
    entries.push(
      summary === "" ? `Usage: kit ${synopsis}` : `Usage: kit ${synopsis}\n\n${summary}`,
    );
    start = end - 1;
  }
  return entries.length === 0 ? undefined : entries.join("\n\n");
}

/** Runs the CLI with its arguments; answers the exit code. */
export async function main(args: readonly string[], cwd: string = Deno.cwd()): Promise<number> {
  const [command, ...rest] = args;
  if (command === "--version") {
    console.log(`kit ${denoJson.version}`);
    return 0;
  }
  if (command === undefined || command === "--help" || command === "-h") {
    console.log(usage);
    return 0;
  }
  if (command !== "generate" && (rest.includes("--help") || rest.includes("-h"))) {
    const help = commandHelp(command);
    if (help === undefined) {
      console.error(`kit: Unknown command '${command}': run 'kit --help'`);
      return 1;
    }
    console.log(help);
    return 0;
  }
  try {
    switch (command) {
      case "init": {
        if (
          rest.some((arg) => arg === "--package-manager" || arg.startsWith("--package-manager="))
        ) {
          throw new CliError(
            "--package-manager is no option of kit init: a kit project runs its tasks with deno task (with --runtime node, deno task build:node bundles what node runs)",
          );
        }
        const { values, positionals } = parseArgs({
          args: [...rest],
          allowPositionals: true,
          options: {
            context: { type: "string", multiple: true },
            queue: { type: "string" },
            link: { type: "string" },
            runtime: { type: "string", multiple: true },
            "no-git": { type: "boolean" },
          },
        });
        const target = resolve(cwd, positionals[0] ?? ".");
        const written = await (await commands.init()).initProject(target, {
          contexts: values.context ?? [],
          ...(values.queue ? { queue: values.queue } : {}),
          ...(values.link ? { link: values.link } : {}),
          ...(values.runtime ? { runtimes: values.runtime } : {}),
        });
        const dir = positionals[0] ?? ".";
        const initGit = await commands.initGit();
        const { note, next } = initGit.describeGitSetup(
          values["no-git"] ? undefined : await initGit.initGitRepository(target),
        );
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
      }
      case "generate": {
        const { values, positionals } = parseArgs({
          args: [...rest],
          allowPositionals: true,
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
        });
        if (values.help) {
          const { generatorKinds, kindHelp } = await commands.catalog();
          const asked = positionals[0];
          if (asked !== undefined && !values.json) {
            const kind = generatorKinds.find((k) => k.kind === asked);
            if (kind === undefined) {
              throw new CliError(
                `Unknown kind '${asked}': one of ${generatorKinds.map((k) => k.kind).join(", ")}`,
              );
            }
            console.log(kindHelp(kind));
            return 0;
          }
          if (values.json) {
            console.log(
              JSON.stringify({ kinds: (await commands.catalog()).generatorKinds }, null, 2),
            );
          } else {for (const k of (await commands.catalog()).generatorKinds) {
              console.log(`${k.kind.padEnd(20)} ${k.summary}`);
            }}
          return 0;
        }
        const [kind, ...names] = positionals;
        if (kind === undefined) {
          throw new CliError(
            "Usage: kit generate <kind> <context> <Name> (kit generate --help lists kinds)",
          );
        }
        const written = await (await commands.generate()).generate(cwd, {
          kind,
          positionals: names,
          options: values,
        });
        for (const path of written) console.log(`wrote ${path}`);
        return 0;
      }
      case "worker-scope": {
        const { values, positionals } = parseArgs({
          args: [...rest],
          allowPositionals: true,
          options: {
            worktree: { type: "string" },
            branch: { type: "string" },
            "dry-run": { type: "boolean" },
            json: { type: "boolean" },
          },
        });
        if (positionals[0] === undefined) {
          throw new CliError("Usage: kit worker-scope <context> [--dry-run] [--json]");
        }
        const briefing = await (await commands.workerScope()).workerScope(cwd, positionals[0], {
          ...(values.worktree ? { worktree: values.worktree } : {}),
          ...(values.branch ? { branch: values.branch } : {}),
          dryRun: values["dry-run"] === true,
        });
        console.log(
          values.json
            ? JSON.stringify(briefing, null, 2)
            : (await commands.workerScope()).formatBriefing(briefing),
        );
        return 0;
      }
      case "docs": {
        const { values } = parseArgs({
          args: [...rest],
          options: { check: { type: "boolean" }, watch: { type: "boolean" } },
        });
        if (values.check && values.watch) throw new CliError("Use --check or --watch, not both");
        if (values.watch) {
          await (await commands.watch()).watchDocs(cwd);
          return 0;
        }
        const written = await (await commands.docs()).docs(cwd, { check: values.check === true });
        if (values.check) console.log("kit docs --check: every derived file is current");
        else {console.log(
            written.length === 0
              ? "kit docs: every derived file is current"
              : `kit docs: wrote ${written.join(", ")}`,
          );}
        return 0;
      }
      case "dev": {
        if (rest.length > 0) throw new CliError("Usage: kit dev");
        return await (await commands.dev()).dev(cwd);
      }
      case "depcruise-config": {
        const { values } = parseArgs({
          args: [...rest],
          options: {
            check: { type: "boolean" },
            write: { type: "boolean" },
          },
        });
        if (values.check && values.write) {
          throw new CliError("Use --check or --write, not both");
        }
        const mode = values.write ? "write" : values.check ? "check" : "print";
        const result = await (await commands.depcruise()).depcruiseConfigCommand(cwd, mode);
        if (mode === "print") console.log(result.text.trimEnd());
        else {console.log(
            result.wasCurrent
              ? "kit depcruise-config: .dependency-cruiser.cjs is current"
              : "kit depcruise-config: wrote .dependency-cruiser.cjs",
          );}
        return 0;
      }
      case "check": {
        const { positionals } = parseArgs({
          args: [...rest],
          allowPositionals: true,
          options: {},
        });
        if (positionals[0] !== "unused" || positionals.length > 1) {
          throw new CliError("Usage: kit check unused");
        }
        const report = await (await commands.unused()).findUnused(cwd);
        const found = report.files.length + report.exports.length + report.dependencies.length;
        if (found === 0) {
          console.log("kit check unused: no unused file, export or dependency");
          return 0;
        }
        console.log((await commands.unused()).formatUnused(report));
        throw new CliError(
          `check unused: ${report.files.length} unused file(s), ${report.exports.length} unused export(s), ${report.dependencies.length} unused dependenc${
            report.dependencies.length === 1 ? "y" : "ies"
          }`,
        );
      }
      case "status":
        console.log(await (await commands.status()).status(cwd));
        return 0;
      case "token": {
        const { values, positionals } = parseArgs({
          args: [...rest],
          allowPositionals: false,
          options: {
            sub: { type: "string" },
            role: { type: "string", multiple: true },
            tenant: { type: "string", multiple: true },
            scope: { type: "string", multiple: true },
            expires: { type: "string" },
          },
        });
        void positionals;
        if (values.sub === undefined) {
          throw new CliError(
            "Usage: kit token --sub <id> [--role <r>]... [--tenant <t>]... [--scope <s>]... [--expires 1h]",
          );
        }
        console.log(
          await (await commands.token()).signProjectToken(cwd, {
            sub: values.sub,
            roles: values.role ?? [],
            tenants: values.tenant ?? [],
            scopes: values.scope ?? [],
            ...(values.expires ? { expires: values.expires } : {}),
          }),
        );
        return 0;
      }
      case "slice": {
        const { values, positionals } = parseArgs({
          args: [...rest],
          allowPositionals: true,
          options: {
            "start-with": { type: "string" },
            "depends-on": { type: "string" },
            owner: { type: "string" },
          },
        });
        const [action, ...args] = positionals;
        if (action === "done") {
          const numbers = args.map((arg) => {
            if (!/^\d+$/.test(arg)) throw new CliError(`slice done: '${arg}' is not a row number`);
            return Number(arg);
          });
          for (const row of await (await commands.slice()).markSlicesDone(cwd, numbers)) {
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
        const row = await (await commands.slice()).addSlice(cwd, {
          context: args[0]!,
          kind: args[1]!,
          title: args[2]!,
          ...(values["start-with"] ? { startWith: values["start-with"] } : {}),
          ...(dependsOn.length > 0 ? { dependsOn: dependsOn.map(Number) } : {}),
          ...(values.owner ? { owner: values.owner } : {}),
        });
        console.log(`kit slice: row ${row.number} (${row.slice}) added, todo`);
        return 0;
      }
      case "resolve": {
        const { values } = parseArgs({
          args: [...rest],
          options: { renumber: { type: "string", multiple: true } },
        });
        const resolution = await (await commands.resolve()).resolveConflicts(cwd, {
          renumber: values.renumber ?? [],
        });
        console.log((await commands.resolve()).formatResolution(resolution));
        return resolution.left.length > 0 || resolution.markers.length > 0 ? 1 : 0;
      }
      case "todo": {
        if (rest[0] === undefined) throw new CliError("Usage: kit todo <context>");
        for (const line of await (await commands.status()).todos(cwd, rest[0])) console.log(line);
        return 0;
      }
      case "hook": {
        if (rest[0] !== "pre-tool-use") throw new CliError("Usage: kit hook pre-tool-use");
        const answer = await (await commands.hook()).preToolUseHook(
          await new Response(Deno.stdin.readable).text(),
        );
        if (answer) console.log(answer);
        return 0;
      }
      default:
        throw new CliError(`Unknown command '${command}': run 'kit --help'`);
    }
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`kit: ${error.message}`);
      return 1;
    }
    if (
      error instanceof TypeError && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      // node:util's message, cut to its first sentence (the rest explains `--` with unbalanced
      // quotes): "Unknown option '--bogus'".
      console.error(`kit: ${error.message.split(". ")[0]}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
