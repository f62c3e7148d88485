import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "@babel/parser";
import { CliError } from "../cli_error.ts";

/** A value's shape, as far as a route's schemas need it. */
export type Shape =
  | { readonly kind: "string" | "number" | "boolean" | "void" }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "array"; readonly item: Shape }
  | { readonly kind: "object"; readonly fields: readonly Field[] };

/** A named part of a value: a message's input, or a property of its answer. */
export interface Field {
  readonly name: string;
  readonly shape: Shape;
  /** Whether it may be left out (a parameter with a default, an optional property). */
  readonly optional: boolean;
  /** The parameter's default, as written (`20`). */
  readonly initializer?: string;
}

/** What a route needs to know of a command or a query. */
export interface MessageShape {
  readonly name: string;
  /** The inputs after the actor, in the constructor's order. */
  readonly inputs: readonly Field[];
  /** What it answers. */
  readonly result: Shape;
  /** The answer's type as the route's handler can name it (`ListLoansResult`), if it can. */
  readonly resultType?: { readonly text: string; readonly exported: boolean };
  /**
   * Whether it declares a permission: `@Requires`, or it extends `AuthorizedCommand` or
   * `AuthorizedQuery` (which the `authz/declared` rule allows only with `@Requires` or
   * `builder.requires`).
   */
  readonly requiresPermission: boolean;
}

// deno-lint-ignore no-explicit-any
type Node = any;

/** A parsed module: its text, its top-level statements, where it is. */
interface Module {
  readonly path: string;
  readonly text: string;
  readonly body: readonly Node[];
}

function load(path: string): Module {
  const text = readFileSync(path, "utf8");
  const body = parse(text, {
    sourceType: "module",
    sourceFilename: path,
    plugins: ["typescript", "decorators-legacy"],
  }).program.body;
  return { path, text, body };
}

/**
 * Reads a command or query class from its syntax: its constructor's inputs after the actor, and
 * the type it answers (its base class's type argument), following type names to the interfaces
 * and type aliases of its module and of the modules it imports by relative path. A type it
 * cannot state as JSON (a `Date`, a class, a type of a package) is refused, naming where.
 */
export function readMessageShape(path: string, name: string): MessageShape {
  const module = load(path);
  const declaration = module.body
    .map((s) => s.type === "ExportNamedDeclaration" ? s.declaration : s)
    .find((d) => d?.type === "ClassDeclaration" && d.id?.name === name);
  if (declaration === undefined) throw new CliError(`${path} declares no class ${name}`);
  const decorators = [
    ...(module.body.find((s) => s.declaration === declaration)?.decorators ?? []),
    ...(declaration.decorators ?? []),
  ];
  const resultNode = declaration.superTypeParameters?.params?.[0];
  if (declaration.superClass === null || resultNode === undefined) {
    throw new CliError(`${name} extends no Command<Result> or Query<Result>`);
  }
  const constructor = declaration.body.body.find((m: Node) =>
    m.type === "ClassMethod" && m.kind === "constructor"
  );
  const inputs = (constructor?.params ?? []).slice(1).map((parameter: Node) =>
    inputOf(parameter, module, name)
  );
  const resultType = resultTypeOf(resultNode, module);
  return {
    name,
    inputs,
    result: shapeOf(resultNode, module, `${name}'s answer`),
    ...(resultType === undefined ? {} : { resultType }),
    // A permission is `@Requires` on the class, or, in the builder style, `builder.requires` in
    // the module file, which only an authorized message may be given without a compile error.
    requiresPermission:
      decorators.some((d: Node) =>
        (d.expression.type === "CallExpression" ? d.expression.callee : d.expression).name ===
          "Requires"
      ) || authorized.has(declaration.superClass.name),
  };
}

/** A constructor parameter after the actor: its shape, from its type or its default value. */
function inputOf(parameter: Node, module: Module, name: string): Field {
  const binding = parameter.type === "TSParameterProperty" ? parameter.parameter : parameter;
  const target = binding.type === "AssignmentPattern" ? binding.left : binding;
  const initializer = binding.type === "AssignmentPattern"
    ? module.text.slice(binding.right.start, binding.right.end)
    : undefined;
  const where = `${name}'s input '${target.name}'`;
  const annotation = target.typeAnnotation?.typeAnnotation;
  const shape = annotation !== undefined
    ? shapeOf(annotation, module, where)
    : initializer !== undefined
    ? shapeOfValue(binding.right, where)
    : refuse(where, "untyped");
  return {
    name: target.name,
    shape,
    optional: initializer !== undefined || target.optional === true,
    ...(initializer === undefined ? {} : { initializer }),
  };
}

/** The answer's type as written, when it is a name (and whether exported) or a type literal. */
function resultTypeOf(
  resultNode: Node,
  module: Module,
): { text: string; exported: boolean } | undefined {
  const resultText = module.text.slice(resultNode.start, resultNode.end);
  if (/^[A-Za-z_$][\w$]*$/.test(resultText)) {
    return { text: resultText, exported: exportsType(module, resultText) };
  }
  return resultNode.type === "TSTypeLiteral" ? { text: resultText, exported: false } : undefined;
}

const authorized = new Set(["AuthorizedCommand", "AuthorizedQuery"]);

function refuse(where: string, type: string): never {
  throw new CliError(
    `${where} is of type ${type}, which kit generate route cannot state as a JSON schema (text, numbers, booleans, text unions, arrays and objects of them): write the route by hand`,
  );
}

/** The shape of a parameter's default value, when it has no type written. */
function shapeOfValue(value: Node, where: string): Shape {
  if (value.type === "NumericLiteral") return { kind: "number" };
  if (value.type === "StringLiteral") return { kind: "string" };
  if (value.type === "BooleanLiteral") return { kind: "boolean" };
  return refuse(where, "inferred from its default");
}

const builtIns = new Set(["Date", "Map", "Set", "Promise", "Uint8Array", "RegExp", "URL"]);

function shapeOf(type: Node, module: Module, where: string): Shape {
  switch (type.type) {
    case "TSStringKeyword":
      return { kind: "string" };
    case "TSNumberKeyword":
      return { kind: "number" };
    case "TSBooleanKeyword":
      return { kind: "boolean" };
    case "TSVoidKeyword":
    case "TSUndefinedKeyword":
      return { kind: "void" };
    case "TSParenthesizedType":
      return shapeOf(type.typeAnnotation, module, where);
    case "TSLiteralType":
      if (type.literal.type === "StringLiteral") {
        return { kind: "enum", values: [type.literal.value] };
      }
      if (type.literal.type === "BooleanLiteral") return { kind: "boolean" };
      break;
    case "TSUnionType": {
      const shape = unionShape(type, module, where);
      if (shape !== undefined) return shape;
      break;
    }
    case "TSArrayType":
      return { kind: "array", item: shapeOf(type.elementType, module, `${where}[]`) };
    case "TSTypeOperator":
      if (type.operator === "readonly") return shapeOf(type.typeAnnotation, module, where);
      break;
    case "TSTypeLiteral":
      return { kind: "object", fields: fieldsOf(type.members, module, where) };
    case "TSTypeReference": {
      const shape = referenceShape(type, module, where);
      if (shape !== undefined) return shape;
      break;
    }
  }
  return refuse(where, module.text.slice(type.start, type.end));
}

/**
 * A union without its `undefined`: its one member's shape, an enum of string literals, or a
 * boolean; undefined for any other.
 */
function unionShape(type: Node, module: Module, where: string): Shape | undefined {
  const members = type.types.filter((t: Node) => t.type !== "TSUndefinedKeyword");
  const shapes = members.map((t: Node) => shapeOf(t, module, where));
  if (shapes.length === 1) return shapes[0];
  if (shapes.every((s: Shape) => s.kind === "enum")) {
    return {
      kind: "enum",
      values: shapes.flatMap((s: Shape) => s.kind === "enum" ? s.values : []),
    };
  }
  if (shapes.every((s: Shape) => s.kind === "boolean")) return { kind: "boolean" };
  return undefined;
}

/**
 * A type named: an array (`Array<T>`, `ReadonlyArray<T>`), or an interface or type alias found
 * from the module; undefined for a built-in or a type it cannot find.
 */
function referenceShape(type: Node, module: Module, where: string): Shape | undefined {
  const name = type.typeName.type === "Identifier" ? type.typeName.name : undefined;
  const argument = type.typeParameters?.params?.[0];
  if ((name === "Array" || name === "ReadonlyArray") && argument !== undefined) {
    return { kind: "array", item: shapeOf(argument, module, `${where}[]`) };
  }
  if (name !== undefined && !builtIns.has(name)) {
    const found = findType(module, name);
    if (found !== undefined) return shapeOf(found.type, found.module, where);
  }
  return undefined;
}

function fieldsOf(members: readonly Node[], module: Module, where: string): Field[] {
  return members.map((member): Field => {
    if (member.type !== "TSPropertySignature" || member.key.type !== "Identifier") {
      return refuse(where, module.text.slice(member.start, member.end));
    }
    return {
      name: member.key.name,
      shape: shapeOf(member.typeAnnotation.typeAnnotation, module, `${where}.${member.key.name}`),
      optional: member.optional === true,
    };
  });
}

/**
 * The declaration of a type name: an interface or type alias of the module, or of the module it
 * is imported from by relative path (followed as far as it is re-imported).
 */
function findType(module: Module, name: string): { type: Node; module: Module } | undefined {
  for (const statement of module.body) {
    const declaration = statement.type === "ExportNamedDeclaration"
      ? statement.declaration
      : statement;
    if (declaration?.type === "TSInterfaceDeclaration" && declaration.id.name === name) {
      return { type: { type: "TSTypeLiteral", members: declaration.body.body }, module };
    }
    if (declaration?.type === "TSTypeAliasDeclaration" && declaration.id.name === name) {
      return { type: declaration.typeAnnotation, module };
    }
  }
  for (const statement of module.body) {
    if (statement.type !== "ImportDeclaration" || !statement.source.value.startsWith(".")) {
      continue;
    }
    const specifier = statement.specifiers.find((s: Node) =>
      s.type === "ImportSpecifier" && s.local.name === name
    );
    if (specifier === undefined) continue;
    const imported = load(join(dirname(module.path), statement.source.value));
    return findType(imported, specifier.imported.name ?? name);
  }
  return undefined;
}

/** Whether the module exports a type of this name (so a route can import it from there). */
function exportsType(module: Module, name: string): boolean {
  return module.body.some((s) =>
    s.type === "ExportNamedDeclaration" &&
    ["TSInterfaceDeclaration", "TSTypeAliasDeclaration"].includes(s.declaration?.type) &&
    s.declaration.id.name === name
  );
}

/** A parameter of an aggregate's factory, as a generator that calls it needs it. */
export interface FactoryParameter {
  readonly name: string;
  /** Its type as written (`string`, `BikeKind`), `unknown` when it has none. */
  readonly type: string;
  /** Its shape, when its type is one kit can state (else a builder leaves its value to the user). */
  readonly shape: Shape | undefined;
  /** Whether it may be left out (a default, or `?`). */
  readonly optional: boolean;
}

/** What a generator reads of an aggregate's module: its factory's parameters, its exported types. */
export interface AggregateFactory {
  /** The parameters of its static `create`, in order; none found: `undefined`. */
  readonly parameters: readonly FactoryParameter[] | undefined;
  /** The types its module exports by name (a parameter's type a command can import from it). */
  readonly exportedTypes: readonly string[];
}

/**
 * Reads an aggregate's factory (`static create(...)` of the class `name`) from its module as it is
 * now, not as it was generated: its parameters, their types and shapes.
 */
export function readAggregateFactory(path: string, name: string): AggregateFactory {
  const module = load(path);
  const declarations = module.body.map((s) =>
    s.type === "ExportNamedDeclaration" ? s.declaration : s
  );
  const exportedTypes = module.body
    .filter((s) => s.type === "ExportNamedDeclaration" && s.declaration?.id?.name !== undefined)
    .map((s) => s.declaration.id.name as string);
  const declaration = declarations.find((d) =>
    d?.type === "ClassDeclaration" && d.id?.name === name
  );
  const create = declaration?.body.body.find((m: Node) =>
    m.type === "ClassMethod" && m.static && m.key?.name === "create"
  );
  if (create === undefined) return { parameters: undefined, exportedTypes };
  const parameters = create.params.map((parameter: Node, index: number): FactoryParameter => {
    const binding = parameter.type === "AssignmentPattern" ? parameter.left : parameter;
    const annotation = binding.typeAnnotation?.typeAnnotation;
    let shape: Shape | undefined;
    try {
      shape = annotation === undefined ? undefined : shapeOf(annotation, module, name);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
    }
    return {
      name: binding.type === "Identifier" ? binding.name : `argument${index + 1}`,
      type: annotation === undefined
        ? "unknown"
        : module.text.slice(annotation.start, annotation.end),
      shape,
      optional: parameter.type === "AssignmentPattern" || binding.optional === true,
    };
  });
  return { parameters, exportedTypes };
}
