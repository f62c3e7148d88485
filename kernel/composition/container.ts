// deno-lint-ignore-file no-explicit-any
import type { DependencyManifest, Provider, Registration } from "./provider.ts";
import { describeInjectable, type Injectable } from "./token.ts";

interface Entry {
  readonly provider: Provider;
  readonly owner: string;
  built: boolean;
  value: unknown;
}

/**
 * Builds and keeps the singletons of an application from their providers, by constructor
 * injection without reflection. Every failure names the token and the chain that asked for it.
 */
export class Container {
  #entries = new Map<Injectable, Entry>();
  #building: Injectable[] = [];

  /** Registers a provider; a token provided twice is refused, naming both owners. */
  register<T>(provide: Injectable<T>, provider: Provider<T>, owner = "the platform"): void {
    const existing = this.#entries.get(provide);
    if (existing !== undefined) {
      throw new Error(
        `'${describeInjectable(provide)}' is provided twice: by ${existing.owner} and by ${owner}`,
      );
    }
    checkProvider(provide, provider);
    this.#entries.set(provide, { provider, owner, built: false, value: undefined });
  }

  /** Registers every registration of a list. */
  registerAll(registrations: readonly Registration[], owner?: string): void {
    for (const r of registrations) this.register(r.provide, r.provider, owner);
  }

  /**
   * Registers a class as its own token, its dependencies taken from the manifest (or none, when
   * its constructor takes no parameter).
   */
  registerClass(
    target: new (...args: any[]) => unknown,
    manifest: DependencyManifest | undefined,
    owner?: string,
  ): void {
    const deps = manifest?.get(target);
    if (deps === undefined && target.length > 0) {
      throw new Error(
        `The dependencies of '${target.name}' are not known: its constructor takes ${target.length} parameter(s); ` +
          `list them in the module's dependencies (run 'kit docs' to derive them)`,
      );
    }
    this.register(target, { useClass: target, deps: deps ?? [] }, owner);
  }

  /** Tells whether a token has a provider. */
  has(key: Injectable): boolean {
    return this.#entries.has(key);
  }

  /**
   * Checks, without building anything, that every dependency of every provider is provided.
   * Throws naming the first one missing and who needs it.
   */
  checkDependencies(): void {
    for (const [key, entry] of this.#entries) {
      const provider = entry.provider;
      if ("useValue" in provider) continue;
      for (const dep of provider.deps ?? []) {
        if (dep === undefined || dep === null) {
          throw new Error(
            `A dependency of '${
              describeInjectable(key)
            }' (${entry.owner}) is undefined: check the import order`,
          );
        }
        if (!this.#entries.has(dep)) {
          throw new Error(
            `Nobody provides '${describeInjectable(dep)}' (needed by '${
              describeInjectable(key)
            }' of ${entry.owner})`,
          );
        }
      }
    }
  }

  /** The value of a token, built on first use. */
  resolve<T>(key: Injectable<T>): T {
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      const chain = this.#building.map(describeInjectable);
      const neededBy = chain.length > 0 ? ` (needed by ${chain.join(" <- ")})` : "";
      throw new Error(`Nobody provides '${describeInjectable(key)}'${neededBy}`);
    }
    if (entry.built) return entry.value as T;
    if (this.#building.includes(key)) {
      const cycle = [...this.#building.slice(this.#building.indexOf(key)), key];
      throw new Error(`Dependency cycle: ${cycle.map(describeInjectable).join(" -> ")}`);
    }
    this.#building.push(key);
    try {
      entry.value = build(entry.provider, (dep) => this.resolve(dep));
      entry.built = true;
      return entry.value as T;
    } finally {
      this.#building.pop();
    }
  }
}

function build(provider: Provider, resolve: (key: Injectable) => unknown): unknown {
  if ("useValue" in provider) return provider.useValue;
  const args = (provider.deps ?? []).map(resolve);
  if ("useClass" in provider) return new provider.useClass(...args);
  return provider.useFactory(...args);
}

function checkProvider(key: Injectable, provider: Provider): void {
  const ok = typeof provider === "object" && provider !== null &&
    ("useValue" in provider ||
      typeof (provider as { useClass?: unknown }).useClass === "function" ||
      typeof (provider as { useFactory?: unknown }).useFactory === "function");
  if (!ok) {
    throw new TypeError(
      `The provider of '${describeInjectable(key)}' must have useValue, useClass or useFactory`,
    );
  }
}
