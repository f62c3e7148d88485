/**
 * Runs the controller compile-time fixtures with TypeScript 7 (npm `typescript@7`), in both
 * decorator modes: `http/types_test/controller_rules_test.ts` under standard decorators and
 * `experimental_decorators/http_test.ts` under `experimentalDecorators`. (TypeScript 6, Deno's own, checks the same
 * files in both modes during `deno test`.) Every `@ts-expect-error` must be used, so a violation
 * that stops being reported on its decorator fails the run.
 *
 * Usage: `deno task test:types`. Installs its compiler and the validation libraries from npm
 * into `.kit/types-test/` (git-ignored) on first use.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const work = join(root, ".kit", "types-test");
const imports = JSON.parse(await Deno.readTextFile(join(root, "deno.json"))).imports as Record<
  string,
  string
>;
const versionOf = (name: string) => imports[name]!.replace(/^npm:/, "").replace(/^(@?[^@]+)@/, "");
const packages: Record<string, string> = {
  typescript: "7.0.2",
  "@types/node": "20.19.0",
  zod: versionOf("zod"),
  valibot: versionOf("valibot"),
  arktype: versionOf("arktype"),
  jose: versionOf("jose"),
  "@standard-schema/spec": versionOf("@standard-schema/spec"),
  yaml: versionOf("yaml"),
  "@opentelemetry/api": versionOf("@opentelemetry/api"),
};

await mkdir(work, { recursive: true });
const manifest = JSON.stringify({ private: true, dependencies: packages }, null, 2);
const manifestPath = join(work, "package.json");
const current = existsSync(manifestPath) ? await Deno.readTextFile(manifestPath) : "";
if (current !== manifest || !existsSync(join(work, "node_modules", "typescript"))) {
  await writeFile(manifestPath, manifest);
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], work);
}

await writeFile(
  join(work, "deno-globals.d.ts"),
  "declare const Deno: { test(...args: any[]): void };\n",
);
/** Every entry of kit's packages (`@kit/kernel`, `@kit/kernel/types`, ...) mapped to its module. */
async function kitPaths(): Promise<Record<string, string[]>> {
  const paths: Record<string, string[]> = {};
  for (const pkg of ["kernel", "http", "jobs"]) {
    const { name, exports } = JSON.parse(await readFile(join(root, pkg, "deno.json"), "utf8")) as {
      name: string;
      exports: Record<string, string>;
    };
    for (const [entry, file] of Object.entries(exports)) {
      paths[name + entry.slice(1)] = [join(root, pkg, file)];
    }
  }
  return paths;
}

const base = {
  compilerOptions: {
    target: "es2022",
    module: "esnext",
    moduleResolution: "bundler",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    lib: ["es2023", "dom"],
    types: ["node"],
    typeRoots: [join(work, "node_modules", "@types")],
    paths: { ...await kitPaths(), "*": ["./node_modules/*", "./node_modules/@types/*"] },
  },
};
const modes = [
  {
    name: "standard decorators",
    file: "http/types_test/controller_rules_test.ts",
    experimentalDecorators: false,
  },
  {
    name: "experimentalDecorators",
    file: "experimental_decorators/http_test.ts",
    experimentalDecorators: true,
  },
];
let failed = false;
for (const mode of modes) {
  const config = join(work, `tsconfig.${mode.experimentalDecorators ? "legacy" : "standard"}.json`);
  await writeFile(
    config,
    JSON.stringify(
      {
        ...base,
        compilerOptions: {
          ...base.compilerOptions,
          experimentalDecorators: mode.experimentalDecorators,
        },
        files: [join(work, "deno-globals.d.ts"), join(root, mode.file)],
      },
      null,
      2,
    ),
  );
  const ok = await run(join(work, "node_modules", ".bin", "tsc"), ["-p", config], root, false);
  console.log(`${ok ? "ok" : "FAILED"}: TypeScript 7, ${mode.name}: ${mode.file}`);
  failed ||= !ok;
}
if (failed) Deno.exit(1);

async function run(
  command: string,
  args: string[],
  cwd: string,
  exitOnFailure = true,
): Promise<boolean> {
  const { code } = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0 && exitOnFailure) {
    console.error(`${command} ${args.join(" ")} failed with exit code ${code}`);
    Deno.exit(1);
  }
  return code === 0;
}
