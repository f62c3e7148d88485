import type { KitConfig } from "../project/kit_config.ts";

/** `docs/context-map.md`: the contexts and their relationships, with a Mermaid diagram. */
export function contextMap(config: KitConfig): string {
  const contexts = [...config.contexts].sort((a, b) => a.name.localeCompare(b.name));
  const relationships = [...config.relationships].sort((a, b) =>
    `${a.upstream}>${a.downstream}`.localeCompare(`${b.upstream}>${b.downstream}`)
  );
  const lines = [
    "# Context map",
    "",
    "Derived from kit.config.json by `kit docs`. Regenerate, never edit by hand.",
    "",
    "```mermaid",
    "flowchart LR",
    ...contexts.map((c) => `  ${c.name.replaceAll("-", "_")}["${c.name} (${c.kind})"]`),
    ...relationships.map((r) =>
      `  ${r.upstream.replaceAll("-", "_")} --> ${r.downstream.replaceAll("-", "_")}`
    ),
    "```",
    "",
    "| Context | Kind | Upstream of | Downstream of |",
    "| --- | --- | --- | --- |",
    ...contexts.map((c) =>
      `| ${c.name} | ${c.kind} | ${
        relationships.filter((r) => r.upstream === c.name).map((r) => r.downstream).join(", ")
      } | ${
        relationships.filter((r) => r.downstream === c.name).map((r) => r.upstream).join(", ")
      } |`
    ),
    "",
  ];
  return lines.join("\n");
}
