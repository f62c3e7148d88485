/**
 * What kit reads of a TypeScript module's syntax to derive a context's files: its named imports
 * and its exported classes with their decorators and constructor parameters. Parsed with
 * @babel/parser (syntax only, about 20 ms to load against ts-morph's 120-300 ms: the TypeScript
 * checker is not needed to read declarations).
 *
 * @module
 */
import { parse } from "@babel/parser";

/** A module's import of named bindings: `import { A, type B } from "./a.ts"`. */
export interface NamedImport {
  readonly from: string;
  /** The names the module binds them to (`B` of `A as B`). */
  readonly names: readonly string[];
  /** The names the imported module exports them under (`A` of `A as B`), in the same order. */
  readonly exported: readonly string[];
}

/** A constructor parameter: its name and the name its type refers to (`CommandBus`), if any. */
export interface ConstructorParameter {
  readonly name: string;
  /** The type reference's name without type arguments; undefined for any other type. */
  readonly typeName?: string;
  /** Its type as written (`string`, `"a" | "b"`); undefined when none is. */
  readonly typeText?: string;
  /** Whether its type is a literal type (`"weekly"`, `3`). */
  readonly literalType?: boolean;
}

/** An exported class: its name, its decorators' names, its constructor's parameters. */
export interface ExportedClass {
  readonly name: string;
  readonly decorators: readonly string[];
  readonly constructorParameters: readonly ConstructorParameter[];
}

/** The syntax kit reads of one module. */
export interface ModuleSyntax {
  readonly imports: readonly NamedImport[];
  readonly classes: readonly ExportedClass[];
}

// deno-lint-ignore no-explicit-any
type Node = any;

/** Parses `text` (TypeScript, decorators before or after `export`); a syntax error names `path`. */
export function readModuleSyntax(text: string, path: string): ModuleSyntax {
  let program: Node;
  try {
    program = parse(text, {
      sourceType: "module",
      sourceFilename: path,
      plugins: ["typescript", "decorators-legacy"],
    }).program;
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  const imports: NamedImport[] = [];
  const classes: ExportedClass[] = [];
  for (const statement of program.body) {
    if (statement.type === "ImportDeclaration") {
      const named = statement.specifiers.filter((s: Node) => s.type === "ImportSpecifier");
      imports.push({
        from: statement.source.value,
        names: named.map((s: Node) => s.local.name),
        exported: named.map((s: Node) => s.imported.name ?? s.imported.value),
      });
    } else if (
      statement.type === "ExportNamedDeclaration" &&
      statement.declaration?.type === "ClassDeclaration"
    ) {
      classes.push(classOf(statement.declaration, statement.decorators ?? [], text));
    }
  }
  return { imports, classes };
}

function classOf(declaration: Node, outer: readonly Node[], text: string): ExportedClass {
  const decorators = [...outer, ...(declaration.decorators ?? [])].map((d: Node) => {
    const callee = d.expression.type === "CallExpression" ? d.expression.callee : d.expression;
    return callee.type === "Identifier" ? callee.name : callee.property?.name ?? "";
  });
  const constructor = declaration.body.body.find((member: Node) =>
    member.type === "ClassMethod" && member.kind === "constructor"
  );
  return {
    name: declaration.id?.name ?? "",
    decorators,
    constructorParameters: (constructor?.params ?? []).map((p: Node) => parameterOf(p, text)),
  };
}

function parameterOf(parameter: Node, text: string): ConstructorParameter {
  const binding = parameter.type === "TSParameterProperty" ? parameter.parameter : parameter;
  const target = binding.type === "AssignmentPattern" ? binding.left : binding;
  const type = target.typeAnnotation?.typeAnnotation;
  const typeName = type?.type === "TSTypeReference" ? nameOf(type.typeName) : undefined;
  return {
    name: target.name ?? "",
    ...(typeName === undefined ? {} : { typeName }),
    ...(type === undefined
      ? {}
      : { typeText: text.slice(type.start, type.end), literalType: type.type === "TSLiteralType" }),
  };
}

function nameOf(name: Node): string {
  return name.type === "Identifier" ? name.name : `${nameOf(name.left)}.${name.right.name}`;
}
