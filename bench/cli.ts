/**
 * Wall time of `kit generate command`, `kit generate route` (of that command) and
 * `kit docs --check` on projects of 20 contexts (three commands each) and 100 contexts (one
 * each), the executable run as a user runs it (issue #17's targets: under 300 ms each at 20
 * contexts, `docs --check` under 1 s at 100). `docs --check` twice: after a generator (which
 * records what it derived, so the check is answered from `.kit/derived-cache.json`) and after a
 * source edited by hand (the cache misses for that context, which is derived again).
 */
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
const checkout = fileURLToPath(new URL("../", import.meta.url));

async function kit(root: string, ...args: string[]): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    throw new Error(`kit ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return performance.now() - started;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The medians of five runs of each measured command on a project of `size` contexts. */
async function measure(size: number, commandsEach: number) {
  const root = await Deno.makeTempDir({ prefix: "kit-bench-" });
  const contexts = Array.from(
    { length: size },
    (_, i) => `context-${String(i + 1).padStart(3, "0")}`,
  );
  try {
    await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        cli,
        "init",
        root,
        ...contexts.flatMap((c) => ["--context", `${c}:core`]),
        "--link",
        checkout,
        "--no-git",
      ],
      stdout: "null",
      stderr: "null",
    }).output();
    for (const context of contexts) {
      for (const name of ["Open", "Close", "Rename"].slice(0, commandsEach)) {
        await kit(root, "generate", "command", context, `${name}Thing`);
      }
    }
    await kit(root, "generate", "route-group", contexts[0]!, "ThingRoutes");
    const generate: number[] = [];
    const route: number[] = [];
    const check: number[] = [];
    const miss: number[] = [];
    for (let i = 0; i < 5; i++) {
      generate.push(
        await kit(
          root,
          ..."generate command".split(" "),
          contexts[0]!,
          `Measured${i}`,
          "--permission",
          `thing.measure${i}`,
        ),
      );
      route.push(await kit(root, "generate", "route", contexts[0]!, `Measured${i}`));
      check.push(await kit(root, "docs", "--check"));
      const handler = `${root}/src/contexts/${
        contexts[i]
      }/application/commands/open-thing/open-thing.handler.ts`;
      await Deno.writeTextFile(
        handler,
        `${await Deno.readTextFile(handler)}// edited by hand ${i}\n`,
      );
      miss.push(await kit(root, "docs", "--check"));
    }
    return {
      commands: size * commandsEach + 5,
      generate: median(generate),
      route: median(route),
      check: median(check),
      miss: median(miss),
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const small = await measure(20, 3);
const large = await measure(100, 1);
console.log("\nkit CLI, median wall time of 5 runs");
console.log(
  `| command | 20 contexts (${small.commands} commands) | 100 contexts (${large.commands} commands) | target |`,
);
console.log("| --- | --- | --- | --- |");
const row = (name: string, a: number, b: number, target: string) =>
  console.log(`| ${name} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${target} |`);
row("kit generate command", small.generate, large.generate, "under 300 ms at 20");
row("kit generate route", small.route, large.route, "under 300 ms at 20");
row(
  "kit docs --check, after a generator (cached)",
  small.check,
  large.check,
  "under 300 ms at 20, 1 s at 100",
);
row(
  "kit docs --check, after a hand edit (derived again)",
  small.miss,
  large.miss,
  "under 300 ms at 20, 1 s at 100",
);
