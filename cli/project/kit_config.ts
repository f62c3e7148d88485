import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { CliError } from "../cli_error.ts";

/** A bounded context of the project. */
export interface ContextEntry {
  /** Its kebab-case name. */
  readonly name: string;
  /** Its kind (`core`, `supporting`, `generic`). */
  readonly kind: string;
}

/** `kit.config.json`: the contexts, their relationships, the queue and the decorator style. */
export interface KitConfig {
  /** The project's name. */
  readonly name: string;
  /** The contexts, sorted by name. */
  readonly contexts: readonly ContextEntry[];
  /** Upstream/downstream relationships (`{ upstream, downstream }`). */
  readonly relationships: readonly { readonly upstream: string; readonly downstream: string }[];
  /** The job store: `database`, `redis` or `memory`. */
  readonly queue: "database" | "redis" | "memory";
  /** How classes are declared: with decorators, or with the module builder. */
  readonly declarations: "decorators" | "builder";
  /**
   * What the repositories, the unit of work, the outbox and the job store are written with:
   * `drizzle` or `knex`; absent, postgres.js (`kit init --orm`).
   */
  readonly orm?: Orm;
  /**
   * `separate` once `kit generate worker` made `apps/worker`: the worker runs the jobs, and the
   * API (`src/main.ts`) only enqueues them. Absent: the API runs them in process.
   */
  readonly worker?: "separate";
}

/** The ORMs a project may be written with (`postgres` is postgres.js, the default). */
export const orms = ["postgres", "drizzle", "knex"] as const;

/** One of {@linkcode orms}. */
export type Orm = (typeof orms)[number];

/** The project's ORM: `postgres` (postgres.js) unless `kit.config.json` names another. */
export function ormOf(config: Pick<KitConfig, "orm">): Orm {
  return config.orm ?? "postgres";
}

/** The project root holding `kit.config.json`: `start` or its nearest parent. */
export function findProjectRoot(start: string): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, "kit.config.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new CliError(
        `Not a kit project: no kit.config.json in '${
          resolve(start)
        }' or its parents (run 'kit init')`,
      );
    }
    dir = parent;
  }
}

/** Reads and checks `kit.config.json`. */
export async function readConfig(root: string): Promise<KitConfig> {
  const path = join(root, "kit.config.json");
  let config: KitConfig;
  try {
    config = JSON.parse(await readFile(path, "utf8")) as KitConfig;
  } catch (error) {
    throw new CliError(`'${path}' is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(config.contexts)) throw new CliError(`'${path}' has no contexts list`);
  return config;
}

/** The config as written: sorted, two-space JSON with a final newline. */
export function formatConfig(config: KitConfig): string {
  return JSON.stringify(
    {
      ...config,
      contexts: [...config.contexts].sort((a, b) => a.name.localeCompare(b.name)),
      relationships: [...config.relationships].sort((a, b) =>
        `${a.upstream}>${a.downstream}`.localeCompare(`${b.upstream}>${b.downstream}`)
      ),
    },
    null,
    2,
  ) + "\n";
}

/** Refuses a name that is not kebab-case, naming what it is. */
export function checkKebab(value: string, what: string): void {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(value)) {
    throw new CliError(
      `Invalid ${what} '${value}': use kebab-case (letters, digits, single dashes)`,
    );
  }
}

/** Refuses a name that is not PascalCase, naming what it is. */
export function checkPascal(value: string, what: string): void {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(value)) {
    throw new CliError(`Invalid ${what} '${value}': use PascalCase (CancelAppointment)`);
  }
}

/** `CancelAppointment` -> `cancel-appointment`. */
export function kebabOf(pascal: string): string {
  return pascal.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** `cancel-appointment` -> `CancelAppointment`. */
export function pascalOf(kebab: string): string {
  return kebab.split("-").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/** `cancel-appointment` -> `cancelAppointment`. */
export function camelOf(kebab: string): string {
  const pascal = pascalOf(kebab);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `Appointment` -> `an Appointment`, `Person` -> `a Person`: a name in generated prose. */
export function aOrAn(name: string): string {
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}
