import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { type ModuleSyntax, readModuleSyntax } from "./module_syntax.ts";
import { camelOf } from "../project/kit_config.ts";

/** The decorators that declare a class to the composition root, and the kind each declares. */
const declaring: Readonly<Record<string, string>> = {
  Background: "background jobs",
  Controller: "routes",
  Guard: "guards",
  Handles: "handlers",
  HandlesEvent: "event handlers",
  ProcessManager: "process managers",
  RequestMapper: "request mappers",
  RouteGroup: "route groups",
  Requires: "messages",
  Scheduled: "scheduled jobs",
  Serializer: "serializers",
};

/** The module builder's methods that declare a class, and the decorator each stands for. */
const builderDeclares: Readonly<Record<string, string>> = {
  backgroundJob: "Background",
  eventHandler: "HandlesEvent",
  handler: "Handles",
  processManager: "ProcessManager",
  requires: "Requires",
  scheduledJob: "Scheduled",
};

/**
 * The calls of the builder declaring a class: the method, then the class (the first argument: a
 * job, a process manager, or the message `requires` gives a permission; the second after the
 * message or the event for `handler` and `eventHandler`).
 */
const builderCalls = [
  /\.(backgroundJob|scheduledJob|processManager|requires)\(\s*([A-Z]\w*)/g,
  /\.(handler|eventHandler)\(\s*[\w$.]+\s*,\s*([A-Z]\w*)/g,
];

/** A use of one of the declaring decorators in a file's text (`@Handles(`...). */
const declaringDecorator = new RegExp(`@\\s*(${Object.keys(declaring).join("|")})\\b`);

/** Tokens that come from the kernel, by the name a constructor parameter's type uses. */
export const kernelTokens: ReadonlySet<string> = new Set([
  "CommandBus",
  "QueryBus",
  "JobQueue",
  "EventPublisher",
  "Clock",
  "ErrorReporter",
  "IdGenerator",
  "ProcessedEvents",
]);

/** A declared class found in a context's sources. */
interface Declared {
  readonly name: string;
  readonly file: string;
  readonly kind: string;
  readonly dependencies: readonly { readonly name: string; readonly from: string }[];
}

/** The derived files of a context: its barrel, its dependency manifest, its CONTEXT.md list. */
export interface DerivedContext {
  readonly declarations: string;
  readonly dependencies: string;
  readonly contextList: string;
}

/**
 * Derives a context's files from its sources, reading only that context's files (their syntax
 * only: no type checking, no other context loaded). Sorted output: the same sources give
 * the same bytes, whatever order they were written in.
 */
export async function deriveContext(
  root: string,
  context: string,
  overlay: ReadonlyMap<string, string> = new Map(),
): Promise<DerivedContext> {
  const base = join(root, "src/contexts", context);
  const planned = [...overlay.keys()].map((path) => join(root, path)).filter((path) =>
    path.startsWith(base + "/") && path.endsWith(".ts")
  );
  const files = [...new Set([...(await sources(base)), ...planned])].sort().filter((f) =>
    !f.endsWith(".spec.ts") && !f.endsWith("_test.ts") &&
    !f.endsWith(`${context}.declarations.ts`) &&
    !f.endsWith(`${context}.dependencies.ts`)
  );
  const declared: Declared[] = [];
  for (const file of files) {
    const text = overlay.get(relative(root, file)) ?? readFileSync(file, "utf8");
    // A file with none of the declaring decorators declares nothing: it is not parsed.
    if (!declaringDecorator.test(text)) continue;
    declared.push(...declaredIn(readModuleSyntax(text, relative(root, file)), file, base));
  }
  declared.sort((a, b) => a.name.localeCompare(b.name));
  // The builder style: the classes the module file declares with the builder (`builder.handler(
  // Message, Handler, ..)`, `builder.backgroundJob(Job, ..)`...) are listed beside the decorated
  // ones (the module declares them: not in its barrel nor manifest).
  const modulePath = join(base, `${context}.module.ts`);
  const moduleText = overlay.get(relative(root, modulePath)) ??
    (existsSync(modulePath) ? readFileSync(modulePath, "utf8") : "");
  const built = builderCalls.flatMap((call) => [...moduleText.matchAll(call)]).map((match) => ({
    name: match[2]!,
    file: `./${context}.module.ts`,
    kind: declaring[builderDeclares[match[1]!]!]!,
    dependencies: [],
  }));
  return {
    declarations: declarationsFile(context, declared),
    dependencies: dependenciesFile(context, declared),
    contextList: contextList([...declared, ...built]),
  };
}

function declaredIn(source: ModuleSyntax, path: string, base: string): Declared[] {
  const out: Declared[] = [];
  const imports = new Map<string, string>();
  for (const declaration of source.imports) {
    for (const name of declaration.names) imports.set(name, declaration.from);
  }
  const file = `./${relative(base, path)}`;
  for (const cls of source.classes) {
    const kinds = cls.decorators.map((d) => declaring[d]).filter((k): k is string =>
      k !== undefined
    );
    if (cls.name === "" || kinds.length === 0) continue;
    // Messages (commands, queries) are built by their senders, not by the container.
    const injectable = kinds.some((kind) => kind !== "messages");
    const parameters = injectable ? cls.constructorParameters : [];
    const dependencies = parameters.map((parameter) => {
      const typeName = parameter.typeName;
      if (typeName === undefined) {
        throw new Error(
          `${
            relative(base, path)
          }: parameter '${parameter.name}' of '${cls.name}' needs a type naming its token`,
        );
      }
      const from = kernelTokens.has(typeName) ? "@kit/kernel" : imports.get(typeName) ?? file;
      return { name: typeName, from: resolveFrom(from, path, base) };
    });
    out.push({ name: cls.name, file, kind: kinds[0]!, dependencies });
  }
  return out;
}

function resolveFrom(from: string, file: string, base: string): string {
  if (!from.startsWith(".")) return from;
  const absolute = join(file, "..", from);
  return `./${relative(base, absolute)}`;
}

function declarationsFile(context: string, declared: readonly Declared[]): string {
  const imports = declared.map((d) => `import { ${d.name} } from "${d.file}";`).sort();
  return [
    "// Derived by kit from the context's sources: every declared class. Regenerate, never merge by hand.",
    'import type { AnyClass } from "@kit/kernel";',
    ...imports,
    "",
    `/** The declared classes of the ${context} context. */`,
    `export const ${camelOf(context)}Declarations: readonly AnyClass[] = [`,
    ...declared.map((d) => `  ${d.name},`),
    "];",
    "",
  ].join("\n");
}

function dependenciesFile(context: string, declared: readonly Declared[]): string {
  const withDeps = declared.filter((d) => d.dependencies.length > 0);
  const byModule = new Map<string, Set<string>>();
  const add = (from: string, name: string) => {
    const names = byModule.get(from) ?? new Set();
    names.add(name);
    byModule.set(from, names);
  };
  for (const d of withDeps) {
    add(d.file, d.name);
    for (const dep of d.dependencies) add(dep.from, dep.name);
  }
  add("@kit/kernel", "type DependencyManifest");
  const imports = [...byModule.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([from, names]) => {
      const sorted = [...names].sort((a, b) =>
        a.replace("type ", "").localeCompare(b.replace("type ", ""))
      );
      // Only types from a module: `import type`, as verbatim module syntax wants.
      return sorted.every((n) => n.startsWith("type "))
        ? `import type { ${sorted.map((n) => n.slice(5)).join(", ")} } from "${from}";`
        : `import { ${sorted.join(", ")} } from "${from}";`;
    });
  return [
    "// Derived by kit from constructor parameter types. Regenerate, never merge by hand.",
    ...imports,
    "",
    `/** The constructor dependencies of the ${context} context's classes. */`,
    `export const ${
      camelOf(context)
    }Dependencies: DependencyManifest = new Map<abstract new (...args: never[]) => unknown, readonly unknown[]>([`,
    ...withDeps.map((d) => `  [${d.name}, [${d.dependencies.map((dep) => dep.name).join(", ")}]],`),
    "]) as DependencyManifest;",
    "",
  ].join("\n");
}

function contextList(declared: readonly Declared[]): string {
  const byKind = new Map<string, string[]>();
  for (const d of declared) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d.name]);
  const lines: string[] = [];
  for (const kind of [...byKind.keys()].sort()) {
    lines.push(
      `- ${kind.charAt(0).toUpperCase()}${kind.slice(1)}: ${byKind.get(kind)!.sort().join(", ")}`,
    );
  }
  return lines.length === 0 ? "- (nothing declared yet)" : lines.join("\n");
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await sources(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}
