import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** Where a context declares its error codes. */
export function errorCodesPath(context: string): string {
  return `src/contexts/${context}/domain/${context}-errors.ts`;
}

/** The name of a context's error codes (`schedulingErrors`). */
export function errorCodesName(context: string): string {
  return `${camelOf(context)}Errors`;
}

/** A context's error codes file, with none declared yet. */
export function errorCodesFile(context: string): string {
  return generatorTemplate("error-code/errors.ts", { context, errors: errorCodesName(context) });
}

/** One code, as `kit generate error-code` is given it. */
export interface ErrorCodeInput {
  /** The code, in upper snake case. */
  readonly code: string;
  /** Its HTTP status (400-499). */
  readonly status: number;
  /** What it means. */
  readonly description: string;
}

/**
 * The write that declares one code in a context's error codes file (creating the file when the
 * context has none yet); unchanged when the code is declared already with this status, refused
 * when it is declared with another. `planned`: writes of the same plan, whose errors file and
 * contract (when they hold them) it builds on, to replace them.
 */
export async function planErrorCodeDeclaration(
  root: string,
  context: string,
  input: ErrorCodeInput,
  planned: readonly FileWrite[] = [],
): Promise<FileWrite[]> {
  checkCode(input);
  const path = errorCodesPath(context);
  const exists = existsSync(join(root, path));
  const text = planned.find((w) => w.path === path)?.contents ??
    (exists ? await readFile(join(root, path), "utf8") : errorCodesFile(context));
  const entries = readRegion(text, "error-codes", path);
  const existing = entries.find((entry) => entry.startsWith(`${input.code}:`));
  const entry = `${input.code}: { status: ${input.status}, description: ${
    JSON.stringify(input.description)
  } },`;
  if (existing !== undefined) {
    const status = /status: (\d+)/.exec(existing)?.[1];
    if (status !== String(input.status)) {
      throw new CliError(
        `Error code '${input.code}' of context '${context}' is declared with status ${status} already, not ${input.status}: a code has one status`,
      );
    }
    return [
      { path, contents: text, ...(exists ? {} : { create: true }) },
      await planErrorContract(
        root,
        context,
        entries,
        planned,
      ),
    ];
  }
  return [
    {
      path,
      contents: updateRegion(text, "error-codes", [...entries, entry], path),
      ...(exists ? {} : { create: true }),
    },
    await planErrorContract(root, context, [...entries, entry], planned),
  ];
}

/** Where a context pins its error contract: each code and the status its clients were told. */
export function errorContractPath(context: string): string {
  return `src/contexts/${context}/domain/${context}-errors.spec.ts`;
}

const kindStatus: Readonly<Record<string, number>> = {
  "refusal": 422,
  "conflict": 409,
  "not-found": 404,
  "unauthorized": 401,
  "forbidden": 403,
};

/**
 * The spec that pins a context's error contract: the statuses of its codes as the generator
 * declared them, compared with what the declarations answer. A code renamed, removed or given
 * another status by hand fails it until the table is changed too: a client-visible change made
 * on purpose. Its table is a kit region, so two workers' codes merge (`kit resolve`).
 */
async function planErrorContract(
  root: string,
  context: string,
  entries: readonly string[],
  planned: readonly FileWrite[],
): Promise<FileWrite> {
  const path = errorContractPath(context);
  const exists = existsSync(join(root, path));
  const text = planned.find((w) => w.path === path)?.contents ??
    (exists ? await readFile(join(root, path), "utf8") : errorContractFile(context));
  const rows = entries.flatMap((entry) => {
    const code = /^([A-Z][A-Z0-9_]*):/.exec(entry)?.[1];
    const status = /status: (\d+)/.exec(entry)?.[1] ??
      String(kindStatus[/kind: "([a-z-]+)"/.exec(entry)?.[1] ?? ""] ?? "");
    return code === undefined || status === "" ? [] : [`${code}: ${status},`];
  });
  const kept = readRegion(text, "statuses", path).filter((row) =>
    !rows.some((r) => r.split(":")[0] === row.split(":")[0])
  );
  return {
    path,
    contents: updateRegion(text, "statuses", [...kept, ...rows], path),
    ...(exists ? {} : { create: true }),
  };
}

function errorContractFile(context: string): string {
  const name = errorCodesName(context);
  return generatorTemplate("error-code/errors.spec.ts", { name, context });
}

/**
 * Plans `kit generate error-code <context> <CODE> --status <4xx> [--description "..."]`: the code
 * declared with its status in the context's `domain/<context>-errors.ts`.
 */
export async function planErrorCode(
  root: string,
  config: KitConfig,
  context: string,
  code: string,
  options: { status?: string; description?: string },
): Promise<FileWrite[]> {
  checkContext(config, context);
  if (options.status === undefined) {
    throw new CliError(
      `Error code '${code}' needs --status <4xx>: the HTTP status it answers on every route`,
    );
  }
  const status = Number(options.status);
  const description = options.description ??
    `TODO(domain): what ${code.toLowerCase().replaceAll("_", " ")} means`;
  return await withDerived(
    root,
    config,
    await planErrorCodeDeclaration(root, context, { code, status, description }),
  );
}

function checkCode(input: ErrorCodeInput): void {
  if (!/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(input.code)) {
    throw new CliError(`Invalid error code '${input.code}': use upper snake case (SLOT_TAKEN)`);
  }
  if (!Number.isInteger(input.status) || input.status < 400 || input.status > 499) {
    throw new CliError(
      `Invalid --status '${input.status}' of error code '${input.code}': a domain code answers 400-499`,
    );
  }
  if (input.description.trim() === "") {
    throw new CliError(`Error code '${input.code}' needs a --description`);
  }
}

/**
 * The writes of a plan with those of a later step put in: a later write of a path planned already
 * replaces it (it was built on it), the others are added.
 */
export function mergeWrites(
  writes: readonly FileWrite[],
  later: readonly FileWrite[],
): FileWrite[] {
  const replaced = new Map(later.map((w) => [w.path, w]));
  return [
    ...writes.map((w) => replaced.get(w.path) ?? w),
    ...later.filter((w) => !writes.some((earlier) => earlier.path === w.path)),
  ];
}
