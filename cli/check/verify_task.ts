import { kitVersion } from "../project/kit_version.ts";

/** The dependency-cruiser a generated project runs (pinned). */
export const dependencyCruiser = "npm:dependency-cruiser@18.7.2";

/**
 * The TypeScript dependency-cruiser parses with: preloaded, because Deno does not resolve the
 * optional peer dependency of an `npm:` executable otherwise (dependency-cruiser then cruises no
 * `.ts` file at all and passes).
 */
export const cruiserTypeScript = "npm:typescript@6.0.3";

/**
 * How a generated project runs `kit`: from JSR, or from the kit checkout its packages are linked to.
 *
 * @param links The `links` of the project's `deno.json` (package folders of a kit checkout).
 * @returns The command line before `kit`'s arguments.
 */
export function kitCommand(links: readonly string[]): string {
  const checkout = links[0]?.replace(/\/[^/]+\/?$/, "");
  return checkout === undefined
    ? `deno run -A jsr:@kit/cli@^${kitVersion}`
    : `deno run -A ${checkout}/cli/main.ts`;
}

/**
 * The `verify` task of a generated project: the derived files current (`kit docs --check`: barrels,
 * dependency manifests, CONTEXT.md lists, context map; no conflict marker, no migration number
 * taken twice), format, lint (with kit's architecture lint rules),
 * type check, the extractability and contract specs (the contract spec composes the platform, so
 * a route declaring an error code of unknown status fails it), the project's own documents current
 * once generated (`deno task docs:check`: `openapi/`, `docs/integration/`), `.dependency-cruiser.cjs` current
 * and cruised, and
 * `kit check unused` (knip's check: knip itself refuses a project without `package.json`).
 * The type check and the specs run `--quiet`: a failure prints, a file checked does not. The specs
 * run `--no-check`: the type check before them covers every file of the project.
 *
 * @param links The `links` of the project's `deno.json`.
 * @returns The task's command line.
 * @example
 * ```ts
 * import { verifyTask } from "./verify_task.ts";
 * console.assert(verifyTask([]).includes("dependency-cruiser"));
 * ```
 */
export function verifyTask(links: readonly string[]): string {
  const kit = kitCommand(links);
  return [
    `${kit} docs --check`,
    "deno fmt --check",
    "deno lint",
    "deno check --quiet .",
    "deno test --quiet --no-check -A test/architecture/extractable.spec.ts test/contract.spec.ts",
    "deno task docs:check",
    `${kit} depcruise-config --check`,
    `deno run -A --no-config --preload ${cruiserTypeScript} ${dependencyCruiser} --output-type err-long --config .dependency-cruiser.cjs src`,
    `${kit} check unused`,
  ].join(" && ");
}
