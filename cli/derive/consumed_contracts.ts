import { existsSync } from "node:fs";
import { join } from "node:path";
import { kebabOf, type KitConfig } from "../project/kit_config.ts";
import type { SliceRow } from "../project/slice_plan.ts";
import { deriveConsumption } from "./consumption.ts";

/**
 * The contracts a context consumes, for its worker's briefing: the published language of each
 * context upstream of it, read-only, with the events it consumes from there. Upstream are the
 * contexts `kit.config.json` declares so, those whose events its code imports, and those
 * publishing an event its slices (rows of the plan) start with `kit generate integration-handler <context> <Event>`
 * for (the handler its worker is about to write). Sorted by upstream.
 */
export function consumedContracts(
  root: string,
  config: KitConfig,
  context: string,
  slices: readonly SliceRow[],
): string[] {
  const events = new Map<string, Set<string>>();
  const add = (upstream: string, names: readonly string[]) =>
    events.set(upstream, new Set([...(events.get(upstream) ?? []), ...names]));
  for (const r of config.relationships) if (r.downstream === context) add(r.upstream, []);
  for (const c of deriveConsumption(root, config)) {
    if (c.downstream === context) add(c.upstream, c.events);
  }
  const planned = new RegExp(`integration-handler\\s+${context}\\s+([A-Z][A-Za-z0-9]*)`, "g");
  for (const row of slices.filter((r) => r.context === context)) {
    for (const [, event] of row.startWith.matchAll(planned)) {
      const upstream = config.contexts.map((c) => c.name).find((name) =>
        name !== context &&
        existsSync(
          join(root, "src/contexts", name, "published-language", `${kebabOf(event!)}.event.ts`),
        )
      );
      if (upstream !== undefined) add(upstream, [event!]);
    }
  }
  return [...events.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([upstream, names]) =>
    `src/contexts/${upstream}/published-language/ (read-only)${
      names.size === 0 ? "" : `: ${[...names].sort().join(", ")}`
    }`
  );
}
