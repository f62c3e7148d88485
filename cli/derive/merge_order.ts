import type { KitConfig } from "../project/kit_config.ts";
import type { Consumption } from "./consumption.ts";

/** The order in which the contexts' contracts merge: upstream before downstream. */
export interface MergeOrder {
  /**
   * The steps, first to merge first; a step's groups depend on none of the same step, so they
   * merge in any order. A group of more than one context is a cycle: they merge together.
   */
  readonly steps: readonly (readonly (readonly string[])[])[];
  /** Each cycle as a path that comes back to its start (`a → b → a`), sorted. */
  readonly cycles: readonly (readonly string[])[];
}

/**
 * The merge order of the contexts: the relationships of `kit.config.json` and the consumption
 * derived from the code are the edges upstream → downstream; a context merges after every
 * context upstream of it. Contexts upstream of one another (a partnership, or a consumer whose
 * events are consumed back) form a cycle, merged as one.
 */
export function mergeOrder(config: KitConfig, consumption: readonly Consumption[]): MergeOrder {
  const names = config.contexts.map((c) => c.name).sort();
  const downstream = new Map(names.map((name) => [name, new Set<string>()]));
  for (const edge of [...config.relationships, ...consumption]) {
    if (edge.upstream === edge.downstream) continue;
    downstream.get(edge.upstream)?.add(edge.downstream);
  }
  const groups = stronglyConnected(names, downstream);
  const groupOf = new Map<string, number>();
  groups.forEach((group, index) => group.forEach((name) => groupOf.set(name, index)));
  // A group's depth: one more than the deepest group upstream of it.
  const upstreamGroups = groups.map(() => new Set<number>());
  for (const [from, tos] of downstream) {
    for (const to of tos) {
      const [a, b] = [groupOf.get(from)!, groupOf.get(to)!];
      if (a !== b) upstreamGroups[b]!.add(a);
    }
  }
  const depth = new Map<number, number>();
  const depthOf = (group: number): number => {
    const known = depth.get(group);
    if (known !== undefined) return known;
    const value = Math.max(-1, ...[...upstreamGroups[group]!].map(depthOf)) + 1;
    depth.set(group, value);
    return value;
  };
  const steps: string[][][] = [];
  groups.forEach((group, index) => {
    const step = depthOf(index);
    (steps[step] ??= []).push(group);
  });
  for (const step of steps) step.sort((a, b) => a[0]!.localeCompare(b[0]!));
  const cycles = groups.filter((group) => group.length > 1).map((group) =>
    cyclePath(group, downstream)
  ).sort((a, b) => a[0]!.localeCompare(b[0]!));
  return { steps, cycles };
}

/** The merge order as the lines `kit status` prints. */
export function formatMergeOrder(order: MergeOrder): string[] {
  const lines = ["Merge order (the contracts of upstream contexts first):"];
  order.steps.forEach((step, index) => {
    lines.push(
      `  ${index + 1}. ${
        step.map((group) =>
          group.length === 1 ? group[0]! : `${group.join(" + ")} (a cycle: merge together)`
        ).join(", ")
      }`,
    );
  });
  for (const cycle of order.cycles) {
    lines.push(
      `  Cycle: ${cycle.join(" → ")} (upstream of one another, so no order between them: ` +
        "merge their contracts in one change)",
    );
  }
  return lines;
}

/** Tarjan's strongly connected components, each sorted, in the order of their first name. */
function stronglyConnected(
  names: readonly string[],
  edges: ReadonlyMap<string, ReadonlySet<string>>,
): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (name: string): void => {
    index.set(name, counter);
    low.set(name, counter);
    counter += 1;
    stack.push(name);
    onStack.add(name);
    for (const next of [...(edges.get(name) ?? [])].sort()) {
      if (!index.has(next)) {
        visit(next);
        low.set(name, Math.min(low.get(name)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(name, Math.min(low.get(name)!, index.get(next)!));
      }
    }
    if (low.get(name) === index.get(name)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== name);
      groups.push(group.sort());
    }
  };
  for (const name of names) if (!index.has(name)) visit(name);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest path from the group's first context back to it, through the group. */
function cyclePath(
  group: readonly string[],
  edges: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const start = group[0]!;
  const members = new Set(group);
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.shift()!;
    for (const next of [...(edges.get(name) ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path: string[] = [];
        for (let at: string | undefined = name; at !== undefined; at = previous.get(at)) {
          path.unshift(at);
        }
        return [...path, start];
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, name);
        queue.push(next);
      }
    }
  }
  return [...group, start];
}
