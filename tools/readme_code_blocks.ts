/**
 * The TypeScript code blocks of a Markdown document, as the README check reads them: each with its
 * line in the document, its code, where it is checked, and whether it is left out.
 *
 * @module
 */

/** One ```ts (or ```typescript) block of a document. */
export interface CodeBlock {
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  /** The code, every line after the fence up to the closing one. */
  readonly code: string;
  /** The fence's info after the language (`ignore`, `dir=example/src`), word by word. */
  readonly attributes: readonly string[];
  /** The file the block names on its first line (`// src/app.ts`), if any. */
  readonly file?: string;
  /** The repository folder the block is checked in (`dir=<folder>`), if any. */
  readonly dir?: string;
  /** Whether the block is a fragment, not checked (`ignore`). */
  readonly ignored: boolean;
}

/**
 * The TypeScript blocks of `markdown`, in order; blocks of other languages (sh, json, toml) are
 * not answered.
 *
 * @param markdown The document.
 * @returns Its ```ts and ```typescript blocks.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeBlocks } from "./readme_code_blocks.ts";
 *
 * const [block] = codeBlocks("# Title\n\n```ts ignore\nconst x = 1;\n```\n");
 * assert.equal(block?.line, 3);
 * assert.equal(block?.ignored, true);
 * ```
 */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]!);
    if (fence === null) continue;
    const close = lines.findIndex((line, j) => j > i && line.trim() === fence[1]);
    const end = close === -1 ? lines.length : close;
    if (fence[2] === "ts" || fence[2] === "typescript") {
      const code = lines.slice(i + 1, end).join("\n") + "\n";
      const attributes = fence[3]!.split(/\s+/).filter((word) => word !== "");
      const file = /^\/\/ ([\w./-]+\.tsx?)\n/.exec(code)?.[1];
      const dir = attributes.find((word) => word.startsWith("dir="))?.slice("dir=".length);
      blocks.push({
        line: i + 1,
        code,
        attributes,
        ...(file === undefined ? {} : { file }),
        ...(dir === undefined ? {} : { dir }),
        ignored: attributes.includes("ignore"),
      });
    }
    i = end;
  }
  return blocks;
}
