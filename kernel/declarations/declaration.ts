// deno-lint-ignore-file no-explicit-any
/** Any class, abstract or not. */
export type AnyClass = abstract new (...args: any[]) => unknown;

/**
 * A class decorator that works whether TypeScript compiles standard (TC39) decorators or
 * `experimentalDecorators`: it takes the class, and the decorator context when there is one.
 */
export type KitClassDecorator<C extends AnyClass = AnyClass> = (
  target: C,
  context?: ClassDecoratorContext<C>,
) => void;

/**
 * One kind of declaration (`controller`, `background-job`, `command-handler`, ...): the metadata
 * its decorator or builder records for a class, kept in a `WeakMap` keyed by the class.
 */
export interface DeclarationKind<M> {
  /** The name of the kind. */
  readonly name: string;
  /** Records the metadata of a class; a class is declared once per kind. */
  record(target: AnyClass, metadata: M): void;
  /** The metadata recorded for a class, if any. */
  read(target: AnyClass): M | undefined;
}

const kindsByClass = new WeakMap<AnyClass, Set<string>>();
const knownKinds = new Map<string, DeclarationKind<unknown>>();

/**
 * Defines a declaration kind. Defining a name twice answers the same kind, so two copies of a
 * package agree.
 */
export function declarationKind<M>(name: string): DeclarationKind<M> {
  const existing = knownKinds.get(name);
  if (existing !== undefined) return existing as DeclarationKind<M>;
  const store = new WeakMap<AnyClass, M>();
  const kind: DeclarationKind<M> = {
    name,
    record(target, metadata) {
      if (store.has(target)) {
        throw new TypeError(`${describeClass(target)} is declared as a ${name} twice`);
      }
      store.set(target, metadata);
      let kinds = kindsByClass.get(target);
      if (kinds === undefined) kindsByClass.set(target, kinds = new Set());
      kinds.add(name);
    },
    read(target) {
      return store.get(target);
    },
  };
  knownKinds.set(name, kind as DeclarationKind<unknown>);
  return kind;
}

/** The declaration kinds recorded for a class, sorted by name. */
export function declarationKindsOf(target: AnyClass): readonly string[] {
  return [...(kindsByClass.get(target) ?? [])].sort();
}

/**
 * Builds a class decorator that works in both decorator modes and refuses to decorate anything
 * but a class. `apply` sees the complete class, static fields included, in both modes.
 */
export function classDecorator<C extends AnyClass>(
  decoratorName: string,
  apply: (target: C) => void,
): KitClassDecorator<C> {
  return function decorate(target: C, context?: ClassDecoratorContext<C>): void {
    if (typeof target !== "function" || (context !== undefined && context.kind !== "class")) {
      throw new TypeError(`@${decoratorName}() decorates a class only`);
    }
    // Under standard decorators, static fields are defined after class decorators run: read the
    // class once it is complete. Under experimentalDecorators they are defined already.
    if (context !== undefined && typeof context.addInitializer === "function") {
      context.addInitializer(function (this: C) {
        apply(this);
      });
    } else {
      apply(target);
    }
  };
}

/** The name of a class for messages: `class 'Name'`. */
export function describeClass(target: unknown): string {
  const name = typeof target === "function" ? target.name : undefined;
  return name ? `class '${name}'` : "an anonymous class";
}
