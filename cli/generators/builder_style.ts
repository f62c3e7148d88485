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
  const modulePath = `src/contexts/${context}/${context}.module.ts`;
  const decoratorLines = new RegExp(
    `^@${built.decorator}\\(([\\s\\S]*?)\\)\\n(?=export class )`,
    "m",
  );
  const args = decoratorLines.exec(built.text)?.[1];
  if (args === undefined) {
    throw new CliError(`'${built.path}' has no @${built.decorator}(..) to declare instead`);
  }
  const text = withoutImport(
    built.text.replace(decoratorLines, ""),
    [built.decorator, ...(built.unused ?? [])],
    built.from,
  );
  const source = readModuleSyntax(text, built.path);
  const cls = source.classes.find((c) => c.name === built.className);
  if (cls === undefined) throw new CliError(`'${built.path}' exports no class ${built.className}`);
  const imported = new Map<string, string>();
  for (const declaration of source.imports) {
    for (const name of declaration.names) imported.set(name, declaration.from);
  }
  const fromModule = (from: string): string => {
    if (!from.startsWith(".")) return from;
    const path = relative(dirname(modulePath), join(dirname(built.path), from));
    return path.startsWith(".") ? path : `./${path}`;
  };
  const deps = cls.constructorParameters.map((parameter) => {
    const name = parameter.typeName;
    if (name === undefined) {
      throw new CliError(
        `'${built.path}': parameter '${parameter.name}' of '${built.className}' needs a type naming its token`,
      );
    }
    const from = kernelTokens.has(name) ? "@kit/kernel" : imported.get(name) ?? built.path;
    return {
      name,
      from: from === built.path ? fromModule(`./${built.path.split("/").pop()}`) : fromModule(from),
    };
  });
  const imports = [
    `import { ${built.className} } from "${fromModule(`./${built.path.split("/").pop()}`)}";`,
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
