import type { Orm } from "../project/kit_config.ts";

/**
 * `knip.json` of a new project, the settings of `kit check unused` (in knip's format, so that the
 * same file serves knip should the project ever get a `package.json`): the scaffolding kit writes
 * before anything uses it is an entry point (each context's permissions, its ports, declared before
 * their adapters, the provider registrations of its repositories, which the platform owner
 * registers, and the test platform); an export its own file uses (a job's payload type, the
 * platform's `providers`) is not reported; and the toolkit's own import-map entries, which
 * generators start importing, are not reported. On Drizzle, the schema registry
 * (`src/platform/database/schema.ts`) is an entry point too: drizzle-kit's, not imported by the
 * application. Edited by hand afterwards.
 *
 * @param orm The project's ORM (`drizzle` adds the schema registry's entry).
 * @returns The file's text.
 * @example
 * ```ts
 * import { knipJson } from "./knip_json.ts";
 * console.assert(JSON.parse(knipJson()).ignoreDependencies.includes("zod"));
 * ```
 */
export function knipJson(orm: Orm = "postgres"): string {
  return JSON.stringify(
    {
      entry: [
        "src/contexts/*/*.permissions.ts",
        "src/contexts/*/application/ports/*.ts",
        "src/contexts/*/infrastructure/*.memory-repository.ts",
        "src/platform/platform-test.module.ts",
        ...(orm === "drizzle" ? ["src/platform/database/schema.ts"] : []),
      ],
      ignore: [],
      ignoreExportsUsedInFile: true,
      ignoreDependencies: ["@kit/http", "@kit/jobs", "@upstash/redis", "postgres", "zod"],
    },
    null,
    2,
  ) + "\n";
}
