import { ts } from "ts-morph";

/** One import or re-export of a module: what it names from which specifier. */
export interface ModuleLink {
  /** The specifier as written (`./x.ts`, `@kit/kernel`, `npm:zod@4`). */
  readonly specifier: string;
  /** The exported names it uses (`default` for a default import); `*` when it takes them all. */
  readonly names: readonly string[] | "*";
}

/** One name a module exports. */
export interface ModuleExport {
  /** The exported name (`default` for a default export). */
  readonly name: string;
  /** The line of its first declaration. */
  readonly line: number;
  /** What it declares (`other` for re-exports and `export default <expression>`). */
  readonly kind: "class" | "enum" | "function" | "interface" | "type" | "variable" | "other";
  /** Whether the module refers to it besides declaring and exporting it. */
  readonly usedInFile: boolean;
  /** Whether its doc comment has a `@public` tag (knip's mark of an export kept on purpose). */
  readonly public: boolean;
}

/** The imports, re-exports and exports of one module. */
export interface ModuleLinks {
  /** Every import, re-export and literal dynamic import, in source order. */
  readonly links: readonly ModuleLink[];
  /** Every name the module exports (re-exports included). */
  readonly exports: readonly ModuleExport[];
  /** Whether it re-exports all of some module (`export * from`): its exports are then open. */
  readonly exportsAll: boolean;
}

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const hasDefault = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

/**
 * Reads what a TypeScript module imports and exports, without type checking (one parse).
 *
 * @param path The file's path (for the parser's diagnostics only).
 * @param text The file's text.
 * @returns Its imports, re-exports and exported names.
 * @example
 * ```ts
 * import { moduleLinks } from "./module_links.ts";
 * const links = moduleLinks("a.ts", 'import { b } from "./b.ts";\nexport const a = b;\n');
 * console.assert(links.links[0]?.specifier === "./b.ts");
 * console.assert(links.exports[0]?.name === "a");
 * ```
 */
export function moduleLinks(path: string, text: string): ModuleLinks {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const links: ModuleLink[] = [];
  const exports: Exported[] = [];
  let exportsAll = false;
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const exported: ExportedBy = (name, node, kind = "other") =>
    exports.push({ name, line: lineOf(node), kind, public: isPublic(node) });
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      links.push(importLink(statement, statement.moduleSpecifier));
    } else if (ts.isExportDeclaration(statement)) {
      if (reexports(statement, exported, links)) exportsAll = true;
    } else if (ts.isExportAssignment(statement)) {
      exported("default", statement);
    } else if (hasExport(statement)) {
      declaredExports(statement, exported);
    }
  }
  const occurrences = identifiersAndDynamicImports(source, links);
  const declarations = (name: string) => exports.filter((e) => e.name === name).length;
  return {
    links,
    exports: uniqueByName(exports).map((e) => ({
      ...e,
      usedInFile: (occurrences.get(e.name) ?? 0) > declarations(e.name),
    })),
    exportsAll,
  };
}

/** An exported name found, before its use in the file is counted. */
type Exported = { name: string; line: number; kind: ModuleExport["kind"]; public: boolean };

/** Records a name the module exports, declared by `node`. */
type ExportedBy = (name: string, node: ts.Node, kind?: ModuleExport["kind"]) => void;

/** An import declaration's link: the names it binds, or `*` for a namespace import. */
function importLink(statement: ts.ImportDeclaration, specifier: ts.StringLiteral): ModuleLink {
  const clause = statement.importClause;
  const names: string[] = [];
  let all = false;
  if (clause?.name) names.push("default");
  const bindings = clause?.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) all = true;
  if (bindings && ts.isNamedImports(bindings)) {
    for (const element of bindings.elements) {
      names.push((element.propertyName ?? element.name).text);
    }
  }
  return { specifier: specifier.text, names: all ? "*" : names };
}

/**
 * An `export { … }`, `export * as x` or `export … from`: its names exported, and its link when it
 * re-exports; true for an `export * from` (the module's exports are then open).
 */
function reexports(
  statement: ts.ExportDeclaration,
  exported: ExportedBy,
  links: ModuleLink[],
): boolean {
  const clause = statement.exportClause;
  if (clause && ts.isNamedExports(clause)) {
    for (const element of clause.elements) exported(element.name.text, element);
  } else if (clause && ts.isNamespaceExport(clause)) exported(clause.name.text, clause);
  if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) return false;
  links.push({
    specifier: statement.moduleSpecifier.text,
    names: clause && ts.isNamedExports(clause)
      ? clause.elements.map((e) => (e.propertyName ?? e.name).text)
      : "*",
  });
  return clause === undefined;
}

/** The names an exported declaration (`export const`, `export class`, `export default`) exports. */
function declaredExports(statement: ts.Statement, exported: ExportedBy): void {
  if (hasDefault(statement)) exported("default", statement);
  else if (ts.isVariableStatement(statement)) {
    for (const declaration of statement.declarationList.declarations) {
      for (const name of bindingNames(declaration.name)) {
        exported(name, declaration, "variable");
      }
    }
  } else {
    const name = (statement as ts.DeclarationStatement).name;
    if (name && ts.isIdentifier(name)) exported(name.text, statement, kindOf(statement));
  }
}

/**
 * How often each identifier occurs in the module; each literal dynamic import found on the way
 * is added to `links`.
 */
function identifiersAndDynamicImports(
  source: ts.SourceFile,
  links: ModuleLink[],
): Map<string, number> {
  const occurrences = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) occurrences.set(node.text, (occurrences.get(node.text) ?? 0) + 1);
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])
    ) links.push({ specifier: node.arguments[0].text, names: "*" });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return occurrences;
}

function isPublic(node: ts.Node): boolean {
  const owner = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  return ts.getJSDocTags(owner).some((tag) => tag.tagName.text === "public");
}

function kindOf(statement: ts.Statement): ModuleExport["kind"] {
  if (ts.isClassDeclaration(statement)) return "class";
  if (ts.isEnumDeclaration(statement)) return "enum";
  if (ts.isFunctionDeclaration(statement)) return "function";
  if (ts.isInterfaceDeclaration(statement)) return "interface";
  if (ts.isTypeAliasDeclaration(statement)) return "type";
  return "other";
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : bindingNames(element.name)
  );
}

function uniqueByName<T extends { name: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.name) && seen.add(item.name));
}
