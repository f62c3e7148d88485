import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { preToolUseHook } from "../commands/hook.ts";
import { generatorKinds } from "../generators/catalog.ts";
import { decidePreToolUse } from "./pre_tool_use.ts";
import { generatorInvocations } from "./generator_invocations.ts";

const testdata = new URL("./testdata/", import.meta.url).pathname;

/** A worktree with `.kit/worker.json` for `scheduling` (or none, or a broken one). */
async function worktree(scope: "scheduling" | "none" | "broken"): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "kit-hook-" });
  await mkdir(join(root, "src/contexts/scheduling"), { recursive: true });
  if (scope !== "none") {
    await mkdir(join(root, ".kit"));
    await writeFile(
      join(root, ".kit/worker.json"),
      scope === "broken" ? "{ not json" : JSON.stringify({ context: "scheduling" }),
    );
  }
  return root;
}

/** A recorded Claude Code hook input, placed in the worktree. */
async function recorded(name: string, root: string): Promise<string> {
  return (await readFile(join(testdata, `${name}.json`), "utf8")).replaceAll("{root}", root);
}

async function decide(name: string, scope: "scheduling" | "none" | "broken" = "scheduling") {
  const root = await worktree(scope);
  try {
    const out = await preToolUseHook(await recorded(name, root));
    return out === "" ? undefined : JSON.parse(out).hookSpecificOutput;
  } finally {
    await rm(root, { recursive: true });
  }
}

Deno.test("the hook lets a worker write its own context and its slices' end-to-end specs", async () => {
  assert.equal(await decide("write-own-context"), undefined);
  assert.equal(await decide("write-e2e-spec"), undefined);
  assert.equal(await decide("read-anything"), undefined);
});

Deno.test("the hook refuses writes outside the context, naming the file and the scope", async () => {
  const platform = await decide("edit-platform");
  assert.equal(platform.hookEventName, "PreToolUse");
  assert.equal(platform.permissionDecision, "deny");
  assert.match(
    platform.permissionDecisionReason,
    /src\/platform\/compose-application\.ts is outside the scope of 'scheduling'/,
  );
  // A relative path from a subdirectory, into another context's published language.
  const other = await decide("multiedit-other-context");
  assert.match(other.permissionDecisionReason, /src\/contexts\/identity\/published-language/);
});

Deno.test("the hook refuses generators that write shared files, and allows the others", async () => {
  const shared = await decide("bash-generate-shared");
  assert.equal(shared.permissionDecision, "deny");
  assert.match(
    shared.permissionDecisionReason,
    /kit generate route-group with --role may write outside the context \(src\/platform\/auth\/role\.ts\)/,
  );
  assert.equal(await decide("bash-generate-local"), undefined);
});

Deno.test("the hook confines every session in a worker's worktree: any agent and the main thread", async () => {
  for (const name of ["edit-platform", "edit-platform-other-agent", "edit-platform-main-thread"]) {
    assert.equal((await decide(name)).permissionDecision, "deny", name);
  }
  // The person's own session, by the Write tool and by the shell from a subdirectory.
  assert.match(
    (await decide("write-config-main-thread")).permissionDecisionReason,
    /src\/platform\/config\.ts is outside the scope of 'scheduling'/,
  );
  assert.match(
    (await decide("bash-redirect-main-thread")).permissionDecisionReason,
    /src\/platform\/config\.ts \(written by '>'\) is outside the scope of 'scheduling'/,
  );
  const scope = { root: "/w", context: "scheduling" };
  const write = { tool_name: "Write", tool_input: { file_path: "/w/kit.config.json" } };
  for (const agent of ["context-builder", "kit:context-builder", "Explore", undefined]) {
    const input = agent === undefined ? write : { ...write, agent_type: agent };
    assert.equal(decidePreToolUse(input, scope).allow, false, String(agent));
  }
  // Outside the worktree: the scratch directories, not a path that only starts in one.
  const at = (file_path: string) =>
    decidePreToolUse({ tool_name: "Write", tool_input: { file_path } }, scope).allow;
  assert.equal(at("/tmp/notes.md"), true);
  assert.equal(at("/tmp/../trunk/src/platform/x.ts"), false);
  assert.equal(at("/trunk/src/contexts/scheduling/x.ts"), false);
});

/** How kit is run: on the PATH, from a checkout, from JSR, as a task of the project. */
const invocations = [
  "kit",
  "deno run -A /home/dev/kit/cli/main.ts",
  "deno run -A jsr:@kit/cli@^0.1.0",
  "deno run -A jsr:@kit/cli",
  "deno task kit",
];

function bash(command: string, cwd = "/w"): boolean {
  return decision(command, cwd).allow;
}

function decision(command: string, cwd = "/w") {
  return decidePreToolUse({ cwd, tool_name: "Bash", tool_input: { command } }, {
    root: "/w",
    context: "scheduling",
  });
}

function reason(command: string, cwd = "/w"): string {
  const answer = decision(command, cwd);
  assert.equal(answer.allow, false, `refused: ${command}`);
  return answer.allow ? "" : answer.reason;
}

Deno.test("the hook sees a generator however kit is invoked, and decides by the catalog", () => {
  for (const kit of invocations) {
    for (const kind of generatorKinds) {
      assert.equal(
        bash(`${kit} generate ${kind.kind} scheduling Thing`),
        !kind.writesShared,
        `${kit} generate ${kind.kind}`,
      );
      // With --local-only, the CLI refuses exactly: the hook lets it decide.
      assert.equal(bash(`${kit} generate ${kind.kind} scheduling Thing --local-only`), true);
    }
    assert.equal(bash(`${kit} generate route-group scheduling Desk --role=clinic-admin`), false);
    assert.equal(bash(`${kit} generate command scheduling Book --aggregate Appointment`), false);
    assert.equal(bash(`${kit} generate adr scheduling UseSlots --deviation`), false);
    assert.equal(bash(`cd src && ${kit} generate worker; deno task test`), false);
  }
});

Deno.test("the hook reads runs of kit generate, not words that look like them", () => {
  assert.deepEqual(
    generatorInvocations(
      'git commit -m "kit generate context billing" && kit generate route-group scheduling Desk --role admin --local-only | tee log',
    ).map((run) => ({ ...run, options: [...run.options] })),
    [{
      kind: "route-group",
      positionals: ["scheduling", "Desk", "admin"],
      options: ["--role", "--local-only"],
      literal: true,
    }],
  );
  assert.equal(bash("echo kit generate context billing"), true);
  assert.equal(bash("deno run -A ./tools/main.ts generate context billing"), true);
  assert.equal(bash("deno run -A ../kit/cli/main.ts generate context billing"), false);
});

Deno.test("the hook refuses dependency changes, by command and by file", async () => {
  assert.match((await decide("bash-add-dependency")).permissionDecisionReason, /dependencies/);
  for (
    const command of [
      "deno add npm:zod@4",
      "deno remove zod",
      "deno install npm:luxon",
      "deno outdated --update",
      "npm install luxon",
      "npm pkg set dependencies.x=1",
      "pnpm add luxon",
      "yarn add luxon",
      "bun add luxon",
      "npx -y npm-check-updates -u",
      "cd src && env CI=1 deno add npm:luxon",
    ]
  ) {
    assert.match(reason(command), /changes dependencies/, command);
  }
  assert.match((await decide("edit-deno-json")).permissionDecisionReason, /holds dependencies/);
});

Deno.test("the hook fails open: no worker file, an unreadable one, or input it cannot parse", async () => {
  assert.equal(await decide("edit-platform", "none"), undefined);
  assert.equal(await decide("edit-platform", "broken"), undefined);
  assert.equal(await preToolUseHook("not json"), "");
});

Deno.test("kit hook pre-tool-use answers Claude Code over stdin and stdout", async () => {
  const root = await worktree("scheduling");
  try {
    // The agent's Edit, and the main thread's shell command from a subdirectory.
    for (const name of ["edit-platform", "bash-redirect-main-thread"]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL("../main.ts", import.meta.url).pathname,
          "hook",
          "pre-tool-use",
        ],
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(await recorded(name, root)));
      await writer.close();
      const { code, stdout } = await child.output();
      assert.equal(code, 0);
      const answer = JSON.parse(new TextDecoder().decode(stdout));
      assert.equal(answer.hookSpecificOutput.hookEventName, "PreToolUse");
      assert.equal(answer.hookSpecificOutput.permissionDecision, "deny", name);
      assert.match(
        answer.hookSpecificOutput.permissionDecisionReason,
        /^kit worker scope \(scheduling\): /,
      );
    }
  } finally {
    await rm(root, { recursive: true });
  }
});

Deno.test("the hook refuses each bypass seen: generators through wrappers, cd out, redirection, sed -i", () => {
  // `--config <path>` is no module: the module after it is kit's.
  assert.match(
    reason("deno run --config ../trunk/deno.json -A /opt/kit/cli/main.ts generate context billing"),
    /kit generate context writes outside the context/,
  );
  assert.equal(bash("deno run -c deno.json -A ../kit/cli/main.ts generate worker"), false);
  assert.match(reason("env KIT_X=1 kit generate context billing"), /kit generate context/);
  assert.match(reason("time kit generate context billing"), /kit generate context/);
  assert.match(reason("sh -c 'kit generate context billing'"), /kit generate context/);
  assert.match(reason(`bash -lc "cd src && kit generate service scheduling"`), /service/);
  assert.match(
    reason("cd ../trunk && kit generate command scheduling Book --local-only"),
    /kit generate would run in \/trunk, outside this worktree \(\/w\)/,
  );
  assert.match(
    reason("echo > src/platform/x"),
    /src\/platform\/x \(written by '>'\) is outside the scope of 'scheduling'/,
  );
  assert.match(
    reason("sed -i 's/1.0/2.0/' deno.json"),
    /deno\.json \(written by sed -i\) holds dependencies/,
  );
});

Deno.test("the hook sees kit through every wrapper and follows the working directory", () => {
  for (
    const command of [
      "nice -n 5 kit generate context billing",
      "timeout 30 kit generate context billing",
      "nohup kit generate context billing &",
      "command kit generate context billing",
      "exec kit generate context billing",
      "env -i PATH=/usr/bin kit generate context billing",
      "env -S 'kit generate context billing'",
      "time -p env CI=1 nice kit generate context billing",
      "bash -c 'sh -c \"kit generate context billing\"'",
      "echo $(kit generate context billing)",
      "X=`kit generate context billing` true",
      "(kit generate context billing)",
      "{ kit generate context billing; }",
      "true && kit generate context billing || false",
      "./node_modules/.bin/kit generate context billing",
      "deno x jsr:@kit/cli generate context billing",
      "deno -A /opt/kit/cli/main.ts generate context billing",
      "deno task --eval 'kit generate context billing'",
      "echo context | xargs kit generate",
      "echo kit generate context billing | xargs env",
      "time (kit generate context billing)",
      "busybox sh -c 'kit generate context billing'",
      "setsid -f kit generate context billing",
      "watch -n 1 kit generate context billing",
      "find . -maxdepth 0 -exec kit generate context billing ;",
      "npm run kit -- generate context billing",
      "pnpm kit generate context billing",
      "npx jsr:@kit/cli generate context billing",
      "deno run -A https://jsr.io/@kit/cli/0.1.0/main.ts generate context billing",
      'deno run -A "$KIT_MAIN" generate context billing',
      "coproc kit generate context billing",
      "trap 'kit generate context billing' EXIT",
      "flock /tmp/lock kit generate context billing",
      "su -c 'kit generate context billing' me",
      "deno task kit -- generate context billing",
      // After `--`, kit's parser reads `--local-only` as an operand: no --local-only at all.
      "kit generate context billing -- --local-only",
      // An option that takes a value is not mistaken for the command it wraps.
      "watch -d kit generate context billing",
      "sudo --user root kit generate context billing",
      "xargs --max-args 1 kit generate",
      // Globs and braces the shell expands, in the command name, the module, the kind.
      "/usr/bin/k?t generate context billing",
      "{kit,true} generate context billing",
      "deno run -A /opt/kit/cli/mai?.ts generate context billing",
      "kit generate {context,x} billing",
      "kit generate c*t billing --local-only",
      "kit generate command sched* Book --local-only",
      "cd ../tr* && kit generate command scheduling Book --local-only",
    ]
  ) {
    assert.equal(bash(command), false, command);
  }
  // The working directory: cd, pushd, env -C, deno task --cwd and --config, from a subdirectory.
  for (
    const command of [
      "cd .. && kit generate command scheduling Book --local-only",
      "cd /w; cd ..; kit generate command scheduling Book --local-only",
      "pushd ../trunk && kit generate command scheduling Book --local-only",
      "env -C ../trunk kit generate command scheduling Book --local-only",
      "env --chdir=/trunk kit generate command scheduling Book --local-only",
      "sudo -D /trunk kit generate command scheduling Book --local-only",
      "deno task --cwd ../trunk kit generate command scheduling Book --local-only",
      "deno task --config ../trunk/deno.json kit generate command scheduling Book --local-only",
      "cd ../trunk && kit docs",
      'cd "$TRUNK" && kit generate command scheduling Book --local-only',
    ]
  ) {
    assert.equal(bash(command), false, command);
  }
  assert.equal(
    bash(
      "cd ../../.. && kit generate command scheduling Book --local-only",
      "/w/src/contexts/scheduling",
    ),
    true,
  );
  assert.equal(
    bash(
      "cd ../../../.. && kit generate command scheduling Book --local-only",
      "/w/src/contexts/scheduling",
    ),
    false,
  );
  // A cd in a subshell or a pipeline does not outlast it.
  assert.equal(
    bash("(cd /trunk && ls) && kit generate command scheduling Book --local-only"),
    true,
  );
  assert.equal(bash("cd /trunk | true; kit generate command scheduling Book --local-only"), true);
  // Another context's files are out of scope too, even with --local-only.
  assert.match(
    reason("kit generate command rentals Book --local-only"),
    /writes in the context 'rentals', not 'scheduling'/,
  );
});

Deno.test("the hook refuses shell writes outside the scope, and allows them inside it", () => {
  for (
    const command of [
      "echo x >> src/platform/x.ts",
      "echo x >| kit.config.json",
      "deno task test &> docs/test.log",
      "printf x | tee -a src/platform/a.ts src/contexts/scheduling/b.ts",
      "cp src/contexts/scheduling/a.ts src/platform/",
      "cp -t src/platform src/contexts/scheduling/a.ts",
      "mv src/platform/a.ts src/contexts/scheduling/a.ts",
      "rm -rf src/contexts/identity",
      "rm src/contexts/*/domain/x.ts",
      "touch src/platform/x.ts",
      "mkdir -p test/e2e/identity",
      "ln -s /etc/passwd src/platform/x",
      "truncate -s 0 deno.lock",
      "chmod 000 kit.config.json",
      "dd if=/dev/zero of=src/platform/x bs=1 count=1",
      "sed -i.bak -e 's/a/b/' src/platform/x.ts",
      "sed --in-place 's/a/b/' kit.config.json",
      "sed -ni 's/a/b/p' kit.config.json",
      "find src/platform -name '*.ts' -delete",
      "find . -name '*.ts' -exec sed -i s/a/b/ {} +",
      "cat <<EOF > src/platform/x.ts\nexport const x = 1;\nEOF",
      "echo x > ../trunk/src/contexts/scheduling/a.ts",
      "echo x > /w-rentals/src/contexts/rentals/a.ts",
      "echo x > /tmp/../trunk/src/platform/x.ts",
      "curl -o src/platform/x.ts https://example.com/x.ts",
      "echo x > $OUT",
      'echo x > "$(pwd)/src/platform/x.ts"',
      "echo x > ~/x.ts",
      "cd $DIR && echo x > a.ts",
      "git ls-files | xargs sed -i s/a/b/",
      "sort -o src/platform/roles.txt roles.txt",
      "exec 3>src/platform/x.ts",
      // A link is a way to write its target: both ends are checked.
      "ln src/platform/x.ts src/contexts/scheduling/x.ts",
      "ln -s ../../platform src/contexts/scheduling/platform",
      "tar -xzf kit.tgz",
      "tar czf src/platform/a.tgz src",
      "unzip x.zip",
      "curl -O https://example.com/x.ts",
      "wget https://example.com/x.ts",
      "deno compile -o src/platform/server src/main.ts",
      "(echo x) > src/platform/x.ts",
      "{ echo x; } >> src/platform/x.ts",
    ]
  ) {
    assert.equal(bash(command), false, command);
  }
  for (
    const command of [
      "echo x > src/contexts/scheduling/a.ts",
      "echo x > a.ts",
      "printf x | tee test/e2e/scheduling/a.spec.ts",
      "cp src/platform/config.ts src/contexts/scheduling/config.ts",
      "mv src/contexts/scheduling/a.ts src/contexts/scheduling/b.ts",
      "rm -rf src/contexts/scheduling/tmp src/contexts/scheduling/*.bak",
      "mkdir -p test/e2e/scheduling/booking",
      "sed -i 's/a/b/' src/contexts/scheduling/domain/slot.ts",
      "sed -i '' 's/a/b/' src/contexts/scheduling/domain/slot.ts",
      "deno task test > /tmp/test.log 2>&1",
      "deno task verify 2>/dev/null | tail -5",
      "find src/contexts/scheduling -name '*.orig' -delete",
      "cat <<EOF > src/contexts/scheduling/notes.md\n# Notes\nEOF",
    ]
  ) {
    assert.equal(
      bash(command, command === "echo x > a.ts" ? "/w/src/contexts/scheduling" : "/w"),
      true,
      command,
    );
  }
});

Deno.test("the hook refuses programs that change files of their own choosing outside the worktree", () => {
  for (
    const command of [
      "cd ../trunk && git commit -am 'billing: done'",
      "git -C ../trunk commit -am 'billing: done'",
      "git --work-tree=../trunk checkout main -- src",
      "cd ../trunk && git checkout -- src/platform",
      "cd ../trunk && deno task docs:generate",
      "cd ../trunk && deno fmt",
      "cd ../trunk && make",
      "cd ../trunk && sh scripts/release.sh",
      "cd ../trunk && source scripts/env.sh",
      "cd ../trunk && npm test",
      'cd "$TRUNK" && git commit -am x',
    ]
  ) {
    assert.match(reason(command), /outside this worktree|cannot tell/, command);
  }
  for (
    const command of [
      "cd ../trunk && git log --oneline | head && git status && git diff main",
      "git -C ../trunk status && git -C ../trunk branch",
      "cd ../trunk && ls src/contexts && cat deno.json && deno check src/main.ts",
      "cd /tmp && tar -xzf /w/fixtures.tgz && deno run -A /tmp/x.ts",
      "git commit -am 'scheduling: book' && git stash && git stash pop",
      "make test && sh scripts/check.sh",
    ]
  ) {
    assert.equal(bash(command), true, command);
  }
});

Deno.test("the hook refuses what it cannot read, saying how to do it instead", () => {
  const cases: [string, RegExp][] = [
    ["eval 'kit generate context billing'", /'eval'.*write the command out without eval/],
    ["$KIT generate context billing", /a command name the shell expands \('\$KIT'\)/],
    ['"$(which kit)" generate context billing', /a command name the shell expands/],
    [
      `python3 -c "open('src/platform/x.ts', 'w')"`,
      /inline code run by 'python3'.*Write and Edit tools/,
    ],
    ['node -e \'require("fs").writeFileSync("x", "")\'', /inline code run by 'node'/],
    ["perl -pi -e 's/a/b/' src/platform/x.ts", /inline code run by 'perl'/],
    ['deno eval \'Deno.writeTextFileSync("x", "")\'', /inline code run by 'deno eval'/],
    ["python3 <<EOF\nopen('x', 'w')\nEOF", /code fed to 'python3' on its input/],
    ["echo 'kit generate context billing' | sh", /commands piped into 'sh'/],
    ['sh -c "$CMD"', /'sh -c' with a command the shell expands/],
    ["f() { rm x; }; f", /cannot read this command line/],
    ["python3 -c'open(1)'", /inline code run by 'python3'/],
    ["node --eval='1'", /inline code run by 'node'/],
    ["deno repl <<EOF\n1\nEOF", /inline code run by 'deno repl'/],
    ["deno run -A 'data:text/javascript,Deno.exit()'", /inline code run by 'deno run'/],
    ["CDPATH=.. cd trunk && kit docs", /CDPATH/],
  ];
  for (const [command, expected] of cases) assert.match(reason(command), expected, command);
  // A here-document fed to a shell is read as the commands it is.
  assert.equal(bash("bash <<EOF\nkit generate context billing\nEOF"), false);
  assert.equal(bash("bash <<EOF\nls src\nEOF"), true);
});

Deno.test("the hook lets ordinary reads and runs through", () => {
  for (
    const command of [
      "cat src/platform/compose-application.ts",
      "grep -rn 'requireTenant' src | head -20",
      "rg -n expectSaved src/contexts",
      "deno test -A src/contexts/scheduling",
      "deno task test 2>&1 | tail -20",
      "deno task verify && deno task test",
      "deno fmt src/contexts/scheduling && deno lint",
      "deno check src/main.ts",
      "git status && git diff --stat",
      'git add -A && git commit -m "echo > src/platform/x; kit generate context y"',
      "git log --oneline | head -5",
      "ls -la src/contexts/scheduling; pwd",
      "find src -name '*.ts' | xargs grep -l Slot",
      "find . -name '*.ts' -exec grep -l Slot {} +",
      "jq .imports deno.json",
      "wc -l < src/platform/compose-application.ts",
      'echo $HOME && echo "${PATH}"',
      "python3 -m json.tool kit.config.json",
      "cat kit.config.json | python3 -m json.tool",
      "awk '{print $1}' docs/architecture/slices.md",
      "sed -n 1,20p deno.json",
      "sed 's/a/b/' src/platform/x.ts > src/contexts/scheduling/x.ts",
      "for f in src/contexts/scheduling/*.ts; do echo $f; done",
      "while read line; do echo $line; done < kit.config.json",
      "if [ -f deno.json ]; then echo yes; fi",
      "kit docs && kit docs --check && kit status && kit todo scheduling",
      "kit generate --help --json | jq '.[].kind'",
      "kit generate aggregate scheduling Slot --local-only",
      "deno run -A src/main.ts",
      "node --version && deno --version",
      "curl -s http://localhost:8000/health -o /dev/null",
      'TOKEN=$(kit token --sub u1 --role admin) && curl -H "authorization: Bearer $TOKEN" localhost:8000',
      "# a comment with kit generate context x > src/platform/y",
      "npm view zod version",
      "npm test && npx prettier --check .",
      "tar -tzf kit.tgz && tar -czf /tmp/a.tgz src && unzip -d /tmp/x x.zip",
      "tar -xzf fixtures.tgz -C src/contexts/scheduling/test",
      "curl -s https://example.com/x | jq . && wget -q -O - https://example.com | head",
      "curl -sO --output-dir /tmp https://example.com/x.ts",
      "trap -p",
      "git commit -m \"$(cat <<'EOF'\nhook: kit generate context (x) > src/platform/y\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
      "deno install",
    ]
  ) {
    assert.equal(bash(command), true, command);
  }
});
