import type { KitConfig } from "../project/kit_config.ts";

/** Where a project's dependency-cruiser configuration lives. */
export const depcruiseConfigPath = ".dependency-cruiser.cjs";

/** One side of a dependency-cruiser rule: regular expressions on the resolved path. */
export interface DepcruiseMatch {
  /** The path (relative to the project, or the bare specifier when unresolved) matches this. */
  readonly path: string;
  /** ...and does not match this. */
  readonly pathNot?: string;
}

/** A `forbidden` rule of dependency-cruiser. */
export interface DepcruiseRule {
  /** The rule's name, printed with each violation. */
  readonly name: string;
  /** Why the rule holds, printed with each violation. */
  readonly comment: string;
  /** Always `error`: a violation fails `verify`. */
  readonly severity: "error";
  /** The importing module. */
  readonly from: DepcruiseMatch;
  /** The imported module. */
  readonly to: DepcruiseMatch;
}

const contexts = "^src/contexts/";
/** What a domain may not reach: the platform, and the packages that do I/O. */
const platform = "^src/platform/|^(@kit/http|@kit/jobs|postgres|@upstash/redis|hono)(/|$)";

/**
 * The architecture rules of a project, derived from its config and sorted by name (one rule per
 * context for the gateways, sorted by context):
 *
 * - `context-through-published-language`: a context imports another only from its
 *   `published-language/`;
 * - `gateway-of-declared-relationship`: a context's gateways (`infrastructure/*.gateway.ts`) read
 *   only the contexts declared upstream of it in `kit.config.json`;
 * - `domain-imports-no-infrastructure`, `domain-imports-no-presentation`,
 *   `domain-imports-no-platform` (`src/platform/`, `@kit/http`, `@kit/jobs`, `postgres`,
 *   `@upstash/redis`, `hono`);
 * - `presentation-imports-no-infrastructure`.
 *
 * @param config The project's `kit.config.json`.
 * @returns The `forbidden` rules.
 * @example Rules of a project with one context
 * ```ts
 * import { depcruiseRules } from "./depcruise_rules.ts";
 * const rules = depcruiseRules({
 *   name: "app",
 *   contexts: [{ name: "billing", kind: "core" }],
 *   relationships: [],
 *   queue: "memory",
 *   declarations: "decorators",
 * });
 * console.assert(rules.some((rule) => rule.name === "domain-imports-no-platform"));
 * ```
 */
export function depcruiseRules(config: KitConfig): DepcruiseRule[] {
  const gateways = gatewayRules(config);
  return [
    {
      name: "context-through-published-language",
      comment:
        "A context imports another context only from that context's published-language/ (and its gateways translate it). Fix: import the other context's event or contract from its published-language/ (kit generate integration-event), or call it through a gateway (kit generate gateway <context> <upstream>); a spec is held to the same rule",
      severity: "error",
      from: { path: `${contexts}([^/]+)/` },
      to: { path: contexts, pathNot: `${contexts}($1|[^/]+/published-language)/` },
    },
    layerRule(
      "domain-imports-no-infrastructure",
      "domain",
      `${contexts}[^/]+/infrastructure/`,
      "The domain does not know how it is stored or reached: ports in application/, adapters in infrastructure/. Fix: declare a port in application/ports/ (kit generate port) and implement it in infrastructure/; a spec that needs an adapter (an in-memory repository) goes in application/, beside the handler it tests",
    ),
    layerRule(
      "domain-imports-no-platform",
      "domain",
      platform,
      "The domain imports no platform code and no package that does I/O. Fix: keep the domain to plain TypeScript and @kit/kernel; move the code that needs the platform or I/O to application/ (behind a port) or infrastructure/; a spec that needs testApplication goes in application/, beside the handler it tests",
    ),
    layerRule(
      "domain-imports-no-presentation",
      "domain",
      `${contexts}[^/]+/presentation/`,
      "The domain does not know how it is presented. Fix: move what both need into the domain and let presentation/ import it from there",
    ),
    ...gateways,
    layerRule(
      "presentation-imports-no-infrastructure",
      "presentation",
      `${contexts}[^/]+/infrastructure/`,
      "Presentation reaches infrastructure only through the command and query buses. Fix: send a command or query from the route (kit generate command|query, then kit generate route); a route's spec lets testApplication (src/platform/platform-test.module.ts) provide the adapters instead of importing infrastructure/",
    ),
  ];
}

/** A rule forbidding a layer (`from`, under every context) to import the paths `to`. */
function layerRule(name: string, from: string, to: string, comment: string): DepcruiseRule {
  return {
    name,
    comment,
    severity: "error",
    from: { path: `${contexts}[^/]+/${from}/` },
    to: { path: to },
  };
}

/** Per context, by name: its gateways read only its declared upstream contexts. */
function gatewayRules(config: KitConfig): DepcruiseRule[] {
  const names = config.contexts.map((c) => c.name).sort();
  return names.map((name): DepcruiseRule => {
    const upstreams = config.relationships.filter((r) => r.downstream === name)
      .map((r) => r.upstream).sort();
    return {
      name: "gateway-of-declared-relationship",
      comment: `A gateway of ${name} reads only its declared upstream contexts (${
        upstreams.join(", ") || "none"
      }). Fix: declare the upstream with 'kit generate gateway ${name} <upstream>', or read a context already declared`,
      severity: "error",
      from: { path: `${contexts}${name}/infrastructure/[^/]+\\.gateway\\.ts$` },
      to: { path: contexts, pathNot: `${contexts}(${[name, ...upstreams].join("|")})/` },
    };
  });
}

/**
 * `.dependency-cruiser.cjs` of a project: the rules of {@link depcruiseRules}, and options that
 * follow relative imports and leave bare, `npm:`, `jsr:` and `node:` specifiers unresolved (the
 * import map is Deno's, not Node's). Derived from `kit.config.json`; the same config gives the same
 * text (before `deno fmt`).
 *
 * @param config The project's `kit.config.json`.
 * @returns The file's text.
 * @example
 * ```ts
 * import { depcruiseConfig } from "./depcruise_rules.ts";
 * const text = depcruiseConfig({
 *   name: "app",
 *   contexts: [],
 *   relationships: [],
 *   queue: "memory",
 *   declarations: "decorators",
 * });
 * console.assert(text.startsWith("// Derived from kit.config.json"));
 * ```
 */
export function depcruiseConfig(config: KitConfig): string {
  const body = {
    forbidden: depcruiseRules(config),
    options: {
      doNotFollow: { path: "node_modules" },
      exclude: { path: "^(npm|jsr|node|https?):" },
      tsPreCompilationDeps: true,
    },
  };
  return [
    "// Derived from kit.config.json by `kit depcruise-config --write`: regenerate, never edit by hand.",
    "// Run by `deno task verify` (dependency-cruiser, with TypeScript preloaded).",
    "/** @type {import('dependency-cruiser').IConfiguration} */",
    `module.exports = ${JSON.stringify(body, null, 2).replace(/^(\s*)"(\w+)":/gm, "$1$2:")};`,
    "",
  ].join("\n");
}
