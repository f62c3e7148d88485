import {
  ModuleKind,
  ModuleResolutionKind,
  type Node,
  Project,
  ScriptTarget,
  type Type,
} from "ts-morph";
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
  /** Whether it declares a permission (`@Requires`). */
  readonly requiresPermission: boolean;
}

/**
 * Reads a command or query class with the TypeScript checker: its constructor's inputs after the
 * actor, and the type it answers (its base class's type argument), resolved through the files it
 * imports by relative path.
 */
export function readMessageShape(path: string, name: string): MessageShape {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      module: ModuleKind.ESNext,
      moduleResolution: ModuleResolutionKind.Bundler,
      target: ScriptTarget.ES2022,
    },
  });
  const file = project.addSourceFileAtPath(path);
  project.resolveSourceFileDependencies();
  const message = file.getClass(name);
  if (message === undefined) throw new CliError(`${path} declares no class ${name}`);
  const base = message.getExtends();
  const [resultNode] = base?.getTypeArguments() ?? [];
  if (base === undefined || resultNode === undefined) {
    throw new CliError(`${name} extends no Command<Result> or Query<Result>`);
  }
  const constructor = message.getConstructors()[0];
  const inputs = (constructor?.getParameters() ?? []).slice(1).map((parameter): Field => {
    const initializer = parameter.getInitializer()?.getText();
    return {
      name: parameter.getName(),
      shape: shapeOf(parameter.getType(), parameter, `${name}'s input '${parameter.getName()}'`),
      optional: initializer !== undefined || parameter.hasQuestionToken(),
      ...(initializer === undefined ? {} : { initializer }),
    };
  });
  const resultText = resultNode.getText();
  const named = /^[A-Za-z_$][\w$]*$/.test(resultText);
  const resultType = named
    ? { text: resultText, exported: file.getExportedDeclarations().has(resultText) }
    : resultNode.getKindName() === "TypeLiteral"
    ? { text: resultText, exported: false }
    : undefined;
  return {
    name,
    inputs,
    result: shapeOf(resultNode.getType(), resultNode, `${name}'s answer`),
    ...(resultType === undefined ? {} : { resultType }),
    requiresPermission: message.getDecorator("Requires") !== undefined,
  };
}

/** A type's shape, or a refusal naming where it was met and what it is. */
function shapeOf(type: Type, at: Node, where: string): Shape {
  if (type.isString() || type.isTemplateLiteral()) return { kind: "string" };
  if (type.isNumber()) return { kind: "number" };
  if (type.isBoolean()) return { kind: "boolean" };
  if (type.isVoid() || type.isUndefined()) return { kind: "void" };
  if (type.isStringLiteral()) return { kind: "enum", values: [type.getLiteralValue() as string] };
  if (type.isUnion()) {
    const members = type.getUnionTypes().filter((member) => !member.isUndefined());
    if (members.length > 0 && members.every((member) => member.isStringLiteral())) {
      return { kind: "enum", values: members.map((member) => member.getLiteralValue() as string) };
    }
    if (members.every((member) => member.isBooleanLiteral())) return { kind: "boolean" };
    if (members.length === 1) return shapeOf(members[0]!, at, where);
  }
  const element = type.getArrayElementType() ??
    (type.getSymbol()?.getName() === "ReadonlyArray" ? type.getTypeArguments()[0] : undefined);
  if (element !== undefined) return { kind: "array", item: shapeOf(element, at, `${where}[]`) };
  if (type.isObject() && type.getCallSignatures().length === 0 && !isBuiltIn(type)) {
    return {
      kind: "object",
      fields: type.getProperties().map((property): Field => {
        const propertyType = property.getTypeAtLocation(at);
        const optional = property.isOptional();
        return {
          name: property.getName(),
          shape: shapeOf(
            optional ? propertyType.getNonNullableType() : propertyType,
            at,
            `${where}.${property.getName()}`,
          ),
          optional,
        };
      }),
    };
  }
  throw new CliError(
    `${where} is of type ${
      type.getText(at)
    }, which kit generate route cannot state as a JSON schema (text, numbers, booleans, text unions, arrays and objects of them): write the route by hand`,
  );
}

/** Classes of the runtime (`Date`, `Map`...): not plain JSON. */
function isBuiltIn(type: Type): boolean {
  const name = type.getSymbol()?.getName();
  return name !== undefined &&
    ["Date", "Map", "Set", "Promise", "Uint8Array", "RegExp", "URL"].includes(name);
}
