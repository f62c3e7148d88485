import type { KitConfig } from "../project/kit_config.ts";
import type { Consumption } from "./consumption.ts";

/**
 * `docs/context-map.md`: the contexts and their relationships, with a Mermaid diagram. An edge
 * goes upstream → downstream: declared in `kit.config.json` (a gateway's), or derived from the
 * code (a consumer of the upstream's events), then labelled with the events consumed.
 */
export function contextMap(config: KitConfig, consumption: readonly Consumption[] = []): string {
  const contexts = [...config.contexts].sort((a, b) => a.name.localeCompare(b.name));
  const events = new Map<string, readonly string[]>();
  for (const edge of consumption) events.set(`${edge.upstream}>${edge.downstream}`, edge.events);
  const edges = [
    ...new Set([
      ...config.relationships.map((r) => `${r.upstream}>${r.downstream}`),
      ...events.keys(),
    ]),
  ].sort().map((key) => {
    const [upstream, downstream] = key.split(">") as [string, string];
    return { upstream, downstream, events: events.get(key) ?? [] };
  });
  const id = (name: string) => name.replaceAll("-", "_");
  const consumed = (name: string) =>
    consumption.filter((c) => c.downstream === name).map((c) =>
      `${c.events.join(", ")} (${c.upstream})`
    ).join("; ");
  return [
    "# Context map",
    "",
    "Derived by `kit docs` from kit.config.json (relationships) and the code (the events each context",
    "imports from another's published language). Regenerate, never edit by hand.",
    "",
    "```mermaid",
    "flowchart LR",
    ...contexts.map((c) => `  ${id(c.name)}["${c.name} (${c.kind})"]`),
    ...edges.map((e) =>
      e.events.length === 0
        ? `  ${id(e.upstream)} --> ${id(e.downstream)}`
        : `  ${id(e.upstream)} -->|"${e.events.join(", ")}"| ${id(e.downstream)}`
    ),
    "```",
    "",
    "| Context | Kind | Upstream of | Downstream of | Consumes |",
    "| --- | --- | --- | --- | --- |",
    ...contexts.map((c) =>
      `| ${c.name} | ${c.kind} | ${
        edges.filter((e) => e.upstream === c.name).map((e) => e.downstream).join(", ")
      } | ${edges.filter((e) => e.downstream === c.name).map((e) => e.upstream).join(", ")} | ${
        consumed(c.name)
      } |`
    ),
    "",
  ].join("\n");
}
