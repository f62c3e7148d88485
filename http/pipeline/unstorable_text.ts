/**
 * Text no store keeps: a NUL character (PostgreSQL's `text` and `jsonb` refuse U+0000) or
 * ill-formed UTF-16 (a lone surrogate, which no UTF-8 store can encode). The pipeline refuses
 * such text in the request before any schema or handler sees it (`refuseUnstorableText`).
 * Internal to the pipeline.
 *
 * @module
 */
import type { ProblemIssue } from "./problem.ts";

/** The most issues one part of a request reports about its text (a body may hold thousands). */
export const maxUnstorableIssues = 20;

const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a text is well-formed UTF-16 (no lone surrogate): `String.prototype.isWellFormed`. */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (text) => (text as string & { isWellFormed(): boolean }).isWellFormed()
    : (text) => !lone.test(text);

/** What makes a text unstorable, to follow "The text" or "The key"; `undefined` when storable. */
export function unstorableFault(text: string): string | undefined {
  if (text.includes("\u0000")) return "holds a NUL character (U+0000), which cannot be stored";
  if (!isWellFormed(text)) {
    return "is not well-formed UTF-16 (it holds a lone surrogate), which cannot be stored";
  }
  return undefined;
}

/**
 * Adds an issue for every unstorable string and key of a parsed value (JSON, or a query record)
 * under `/<part>`, at most {@linkcode maxUnstorableIssues}; tells whether it found any. Walks
 * without recursion, so that a deeply nested body cannot overflow the stack.
 */
export function collectUnstorable(value: unknown, part: string, issues: ProblemIssue[]): boolean {
  const stack: unknown[] = [value, `/${part}`];
  let found = 0;
  while (stack.length > 0 && found < maxUnstorableIssues) {
    const at = stack.pop() as string;
    const item = stack.pop();
    if (typeof item === "string") {
      const fault = unstorableFault(item);
      if (fault !== undefined) {
        issues.push({ pointer: at, detail: `The text ${fault}`, code: "unstorable_text" });
        found++;
      }
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i], `${at}/${i}`);
    } else if (item !== null && typeof item === "object") {
      const keys = Object.keys(item);
      const members = keys.map((key) => `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      for (let i = 0; i < keys.length && found < maxUnstorableIssues; i++) {
        const fault = unstorableFault(keys[i]!);
        if (fault !== undefined) {
          issues.push({
            pointer: members[i]!,
            detail: `The key ${fault}`,
            code: "unstorable_text",
          });
          found++;
        }
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((item as Record<string, unknown>)[keys[i]!], members[i]);
      }
    }
  }
  return found > 0;
}
