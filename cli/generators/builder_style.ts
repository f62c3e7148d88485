/**
 * The builder style (`"declarations": "builder"` in `kit.config.json`) for the generators that
 * write a decorated class: the class as the decorator style writes it, without its decorator, and
 * the call that declares it in the context's module file instead (`builder.handler(..)`,
 * `builder.eventHandler(..)`, `builder.scheduledJob(..)`, `builder.processManager(..)`), with the
 * tokens of its constructor's parameters as `deps` (what `kit docs` derives for a decorated class).
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { CliError } from "../cli_error.ts";
import { kernelTokens } from "../derive/derive_context.ts";
import { readModuleSyntax } from "../derive/module_syntax.ts";
import type { FileWrite } from "../files/file_plan.ts";
import type { KitConfig } from "../project/kit_config.ts";
import { withBuilderDeclaration } from "./builder_module.ts";

/** Whether the project declares its classes with the module builder. */
export function inBuilderStyle(config: KitConfig): boolean {
  return config.declarations === "builder";
}

/** A class the builder style declares in the module file. */
export interface BuiltClass {
  /** The class's file, from the project's root. */
  readonly path: string;
  /** The file's text in the decorator style. */
  readonly text: string;
  /** The class's name. */
  readonly className: string;
  /** The decorator the decorator style declares it with (`Handles`). */
  readonly decorator: string;
  /** The package the decorator comes from (`@kit/kernel`, `@kit/jobs`). */
  readonly from: string;
  /**
   * The call in the builder function, given the builder's name, the class's `deps` (`deps:
   * [CommandBus]`, or empty when its constructor takes none) and the decorator's arguments as
   * written.
   */
  readonly call: (builder: string, deps: string, args: string) => string;
  /** Names the call needs besides the class and its dependencies, each an import line. */
  readonly imports?: readonly string[];
  /**
   * Names the call needs that the class's file imports (`from` as written there), imported by the
   * module file from where they are.
   */
  readonly importsOfFile?: readonly { readonly name: string; readonly from: string }[];
  /** Other names of the decorator's import that only the decorator used (`onEvent`). */
  readonly unused?: readonly string[];
}

/**
 * The writes of the builder style for `built`: its file without the decorator (nor its import),
 * and the module file of its context with the call declaring it. The decorator must start its own
 * line and end on the line before `export class`, as the generators write it.
 */
export async function builderWrites(
  root: string,
  context: string,
  built: BuiltClass,
): Promise<{ file: FileWrite; module: FileWrite }> {
  const modulePath = modulePathOf(context);
  const { text, args } = withoutDecorator(built.path, built.text, built.decorator, [
    built.decorator,
    ...(built.unused ?? []),
  ], built.from);
  const source = readModuleSyntax(text, built.path);
  const cls = source.classes.find((c) => c.name === built.className);
  if (cls === undefined) throw new CliError(`'${built.path}' exports no class ${built.className}`);
  const imported = new Map<string, string>();
  for (const declaration of source.imports) {
    for (const name of declaration.names) imported.set(name, declaration.from);
  }
  const fromModule = (from: string): string => fromModuleFile(modulePath, built.path, from);
  const ownFile = `./${built.path.split("/").pop()}`;
  const deps = cls.constructorParameters.map((parameter) => {
    const name = parameter.typeName;
    if (name === undefined) {
      throw new CliError(
        `'${built.path}': parameter '${parameter.name}' of '${built.className}' needs a type naming its token`,
      );
    }
    const from = kernelTokens.has(name) ? "@kit/kernel" : imported.get(name) ?? built.path;
    return { name, from: from === built.path ? fromModule(ownFile) : fromModule(from) };
  });
  const imports = [
    `import { ${built.className} } from "${fromModule(ownFile)}";`,
    ...deps.map((d) => `import { ${d.name} } from "${d.from}";`),
    ...(built.importsOfFile ?? []).map((i) => `import { ${i.name} } from "${fromModule(i.from)}";`),
    ...(built.imports ?? []),
  ];
  const depsText = deps.length === 0 ? "" : `deps: [${deps.map((d) => d.name).join(", ")}]`;
  const current = await readFile(join(root, modulePath), "utf8");
  return {
    file: { path: built.path, contents: text, create: true },
    module: {
      path: modulePath,
      contents: withBuilderDeclaration(current, modulePath, {
        imports,
        call: (builder) => built.call(builder, depsText, args),
      }),
    },
  };
}

/** A message that requires a permission, as the decorator style writes it (`@Requires(..)`). */
export interface RequiringMessage {
  /** The message's file, from the project's root. */
  readonly path: string;
  /** The file's text in the decorator style. */
  readonly text: string;
  /** The message class's name. */
  readonly className: string;
}

/**
 * The builder style's permission of a message: its file without `@Requires(..)` (nor the imports
 * only the decorator used: `Requires`, the context's permissions), and `module` (the context's
 * module file as planned so far) with `builder.requires(Message, <the decorator's arguments>)`
 * and the imports the call needs, from where the message's file imports them.
 */
export function builderRequirement(
  message: RequiringMessage,
  module: FileWrite,
): { file: FileWrite; module: FileWrite } {
  const stripped = withoutDecorator(
    message.path,
    message.text,
    "Requires",
    ["Requires"],
    "@kit/kernel",
  );
  const source = readModuleSyntax(stripped.text, message.path);
  const importsOfArgs = source.imports.flatMap((declaration) =>
    declaration.names
      .filter((name) => new RegExp(`\\b${name}\\b`).test(stripped.args))
      .map((name) => ({ name, from: declaration.from }))
  );
  let text = stripped.text;
  const body = text.split("\n").filter((line) => !line.startsWith("import ")).join("\n");
  for (const { name, from } of importsOfArgs) {
    if (!new RegExp(`\\b${name}\\b`).test(body)) text = withoutImport(text, [name], from);
  }
  const fromModule = (from: string): string => fromModuleFile(module.path, message.path, from);
  return {
    file: { path: message.path, contents: text, create: true },
    module: {
      ...module,
      contents: withBuilderDeclaration(module.contents, module.path, {
        imports: [
          `import { ${message.className} } from "${
            fromModule(`./${message.path.split("/").pop()}`)
          }";`,
          ...importsOfArgs.map((i) => `import { ${i.name} } from "${fromModule(i.from)}";`),
        ],
        call: (builder) => `${builder}.requires(${message.className}, ${stripped.args});`,
      }),
    },
  };
}

/** The module file of a context, from the project's root. */
function modulePathOf(context: string): string {
  return `src/contexts/${context}/${context}.module.ts`;
}

/** An import's specifier as the module file writes it, given as the file at `path` writes it. */
function fromModuleFile(modulePath: string, path: string, from: string): string {
  if (!from.startsWith(".")) return from;
  const relativePath = relative(dirname(modulePath), join(dirname(path), from));
  return relativePath.startsWith(".") ? relativePath : `./${relativePath}`;
}

/**
 * `text` (of the file at `path`) without its `@decorator(..)` and without `dropped` in its import
 * from `from`, and the decorator's arguments as written. The decorator must start its own line
 * and end on the line before `export class`, as the generators write it.
 */
function withoutDecorator(
  path: string,
  text: string,
  decorator: string,
  dropped: readonly string[],
  from: string,
): { text: string; args: string } {
  const decoratorLines = new RegExp(`^@${decorator}\\(([\\s\\S]*?)\\)\\n(?=export class )`, "m");
  const args = decoratorLines.exec(text)?.[1];
  if (args === undefined) {
    throw new CliError(`'${path}' has no @${decorator}(..) to declare instead`);
  }
  return { text: withoutImport(text.replace(decoratorLines, ""), dropped, from), args };
}

/** `text` without `dropped` in its import from `from` (the import gone when nothing is left). */
function withoutImport(text: string, dropped: readonly string[], from: string): string {
  const pattern = new RegExp(`^import \\{([^}]*)\\} from "${from.replace("/", "\\/")}";\\n`, "m");
  return text.replace(pattern, (_line, list: string) => {
    const names = list.split(",").map((n) => n.trim()).filter((n) =>
      n !== "" && !dropped.includes(n)
    );
    if (names.length === 0) return "";
    // Only types left: `import type`, as verbatim module syntax wants.
    return names.every((n) => n.startsWith("type "))
      ? `import type { ${names.map((n) => n.slice(5)).join(", ")} } from "${from}";\n`
      : `import { ${names.join(", ")} } from "${from}";\n`;
  });
}

/** An options object of the non-empty `parts` (`{ every: "5m", deps: [CommandBus] }`), or `{}`. */
export function optionsOf(...parts: readonly string[]): string {
  const given = parts.filter((part) => part !== "");
  return given.length === 0 ? "{}" : `{ ${given.join(", ")} }`;
}
