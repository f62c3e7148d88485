import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FileWrite } from "../files/file_plan.ts";
import type { KitConfig } from "../project/kit_config.ts";

const decision = /^(\d{4})-(.+\.md)$/;

/**
 * The renames that give every decision of a context a number of its own. Two workers of one
 * context each number their decision after the last one on the trunk, so after the merge two
 * files share a number; the first in name order keeps it, each other one takes the next free
 * number (file name and title). Deterministic, so every tree derives the same names.
 *
 * @example
 * A context with `0001-keep-slots.md` and `0001-rooms.md` (merged from two branches): the plan
 * removes `0001-rooms.md` and writes `0002-rooms.md` titled `# 0002. ...`.
 */
export function planDecisionNumbers(root: string, config: KitConfig): FileWrite[] {
  const writes: FileWrite[] = [];
  for (const context of config.contexts) {
    const folder = `src/contexts/${context.name}/docs/adr`;
    if (!existsSync(join(root, folder))) continue;
    const files = (readdirSync(join(root, folder))).filter((name) => decision.test(name)).sort();
    const taken = new Set(files.map((name) => Number(decision.exec(name)![1])));
    const kept = new Set<number>();
    for (const name of files) {
      const [, digits, rest] = decision.exec(name)!;
      const number = Number(digits);
      if (!kept.has(number)) {
        kept.add(number);
        continue;
      }
      let next = Math.max(...taken) + 1;
      while (taken.has(next)) next++;
      taken.add(next);
      kept.add(next);
      const renumbered = String(next).padStart(4, "0");
      const text = readFileSync(join(root, folder, name), "utf8");
      writes.push(
        { path: `${folder}/${name}`, contents: "", remove: true },
        {
          path: `${folder}/${renumbered}-${rest}`,
          contents: text.replace(new RegExp(`^# ${digits}\\.`, "m"), `# ${renumbered}.`),
          create: true,
        },
      );
    }
  }
  return writes;
}
