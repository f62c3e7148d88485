/**
 * The error-code reference (docs/reference/error-codes.md), generated from the codes kit's library
 * packages declare: the table of the codes the HTTP pipeline and the kernel answer by themselves
 * (`http/contract/pipeline_codes.ts`), each `defineErrorCodes` of kernel, http and jobs (today the
 * jobs dashboard's), and the codes of the kernel's error classes that no table holds (their status
 * follows their kind). A `defineErrorCodes` call in a file this generator does not read fails it,
 * naming the file, so that no declared code is left out of the page.
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { ErrorCode } from "@kit/kernel";
import { statusOfKind } from "@kit/kernel/internal";
import type { ConceptErrorKind } from "@kit/kernel/types";
import { jobsDashboardErrors } from "@kit/jobs/dashboard";
import { pipelineCodes } from "../http/contract/pipeline_codes.ts";
import { problemType } from "../http/pipeline/problem.ts";

/** The files whose `defineErrorCodes` declarations the page lists, with what it imports of them. */
const declarations: ReadonlyMap<string, {
  readonly entry: string;
  readonly codes: Readonly<Record<string, ErrorCode>>;
}> = new Map([["jobs/dashboard/errors.ts", {
  entry: "@kit/jobs/dashboard",
  codes: jobsDashboardErrors,
}]]);

/** The TypeScript sources of kernel, http and jobs, tests and fixtures left out. */
async function librarySources(root: string, folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!/^(testdata|types_test|testdata|tests|node_modules)$/.test(entry.name)) {
        files.push(...await librarySources(root, path));
      }
    } else if (entry.name.endsWith(".ts") && !/_test\.ts$|^_test_/.test(entry.name)) {
      files.push(relative(root, join(root, path)));
    }
  }
  return files;
}

/** A code thrown by a kernel (or http, jobs) error class, found in its source. */
interface ThrownCode {
  readonly code: string;
  readonly kind: ConceptErrorKind;
  readonly file: string;
  readonly className: string;
  readonly meaning: string;
}

/** The source with its comments blanked (so that examples in doc comments are not read). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/\S/g, " "));
}

/** The first sentence of the doc comment right before `export class <name>`, `: code ...` cut. */
function classMeaning(source: string, at: number): { className: string; meaning: string } {
  const before = source.slice(0, at);
  const classAt = before.lastIndexOf("export class ");
  const className = /^export class (\w+)/.exec(before.slice(classAt))?.[1] ?? "";
  const doc = /\/\*\*([\s\S]*?)\*\/\s*$/.exec(before.slice(0, classAt))?.[1] ?? "";
  const text = doc.split("\n").map((line) => line.replace(/^\s*\*\s?/, "")).join(" ").trim();
  const sentence = /^(.*?[.:])(\s|$)/.exec(text.replace(/:\s*code `[A-Z_]+`.*$/, "."))?.[1] ?? text;
  return { className, meaning: sentence.replace(/[.:]$/, "") };
}

async function scan(root: string): Promise<{ thrown: ThrownCode[]; declaring: string[] }> {
  const thrown: ThrownCode[] = [];
  const declaring: string[] = [];
  const files = [
    ...await librarySources(root, "kernel"),
    ...await librarySources(root, "http"),
    ...await librarySources(root, "jobs"),
  ].sort();
  for (const file of files) {
    const source = await readFile(join(root, file), "utf8");
    const code = withoutComments(source);
    if (/\bdefineErrorCodes\(\s*"/.test(code)) declaring.push(file);
    const pattern =
      /(?:super|new ConceptError)\(\s*"(refusal|conflict|not-found|unauthorized|forbidden)",\s*"([A-Z][A-Z0-9_]*)"/g;
    for (const match of code.matchAll(pattern)) {
      thrown.push({
        code: match[2]!,
        kind: match[1]! as ConceptErrorKind,
        file,
        ...classMeaning(source, match.index),
      });
    }
  }
  return { thrown, declaring };
}

const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;

/**
 * The error-code reference page, unformatted.
 *
 * @param root The repository's folder.
 * @returns The Markdown of docs/reference/error-codes.md.
 * @throws {Error} When a file of kernel, http or jobs declares codes this generator does not read.
 */
export async function errorCodeReference(root: string): Promise<string> {
  const { thrown, declaring } = await scan(root);
  const unread = declaring.filter((file) => !declarations.has(file));
  if (unread.length > 0) {
    throw new Error(
      `${
        unread.join(", ")
      } declare error codes the reference does not list: add them to the declarations of tools/docs_reference_errors.ts`,
    );
  }
  const listed = new Set(Object.keys(pipelineCodes));
  const lines = [
    "# Error codes",
    "",
    "<!-- Generated by `deno task docs:reference` (tools/docs_reference_errors.ts) from the codes kit's",
    "packages declare; tools/docs_reference_test.ts fails when this page differs. Do not edit. -->",
    "",
    "Every error kit answers is an RFC 9457 problem document (`application/problem+json`) with a",
    "`code`; its `type` is `urn:kit:problem:` and the code in kebab case. This page lists every code",
    "kit's packages define. A project's own codes are declared with `defineErrorCodes` in their",
    "context ([Error codes and problems](../guides/error-codes.md)); a route lists those it may",
    "answer, and its OpenAPI document names them with their status.",
    "",
    "## Codes kit answers by itself",
    "",
    "The HTTP pipeline's and the kernel's, known to every route that may meet them without a",
    "declaration of the project's (`httpPlugin({ statusByCode })` overrides a status).",
    "",
    row(["Code", "Status", "Type", "Meaning"]),
    row(["---", "---", "---", "---"]),
    ...Object.entries(pipelineCodes).map(([code, { status, description }]) =>
      row([`\`${code}\``, String(status), `\`${problemType(code)}\``, description])
    ),
  ];
  for (const [file, { entry, codes }] of declarations) {
    const declared = Object.values(codes).sort((a, b) =>
      a.status - b.status || a.code.localeCompare(b.code)
    );
    const contexts = [...new Set(declared.map((code) => code.context))].join(", ");
    lines.push(
      "",
      `## The codes of \`${entry}\``,
      "",
      `Declared in \`${file}\` (context \`${contexts}\`) with \`defineErrorCodes\`.`,
      "",
      row(["Code", "Status", "Type", "Meaning"]),
      row(["---", "---", "---", "---"]),
      ...declared.map((code) =>
        row([
          `\`${code.code}\``,
          String(code.status),
          `\`${problemType(code.code)}\``,
          code.description,
        ])
      ),
    );
    for (const code of declared) listed.add(code.code);
  }
  const others = thrown.filter((code) => !listed.has(code.code))
    .filter((code, i, all) => all.findIndex((other) => other.code === code.code) === i)
    .sort((a, b) => a.code.localeCompare(b.code));
  if (others.length > 0) {
    lines.push(
      "",
      "## Codes of the kernel's errors with no status of their own",
      "",
      "Thrown by the kernel's error classes and answered, when a route meets one it does not",
      "declare, with the status of the error's kind (and reported; under",
      '`httpPlugin({ undeclaredErrors: "refuse" })` it answers 500).',
      "",
      row(["Code", "Kind", "Status of its kind", "Class", "Meaning"]),
      row(["---", "---", "---", "---", "---"]),
      ...others.map((code) =>
        row([
          `\`${code.code}\``,
          `\`${code.kind}\``,
          String(statusOfKind[code.kind]),
          `\`${code.className}\` (\`${code.file}\`)`,
          code.meaning,
        ])
      ),
    );
  }
  return lines.join("\n") + "\n";
}
