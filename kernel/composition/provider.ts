// deno-lint-ignore-file no-explicit-any
import type { Injectable } from "./token.ts";

/** Provides a value built elsewhere. */
export interface ValueProvider<T> {
  /** The value. */
  readonly useValue: T;
}

/** Provides an instance of a class, built once from its dependencies. */
export interface ClassProvider<T> {
  /** The class to build. */
  readonly useClass: new (...args: any[]) => T;
  /** The constructor's dependencies, in parameter order. */
  readonly deps?: readonly Injectable[];
}

/** Provides what a factory returns, called once with its dependencies. */
export interface FactoryProvider<T> {
  /** The factory. */
  readonly useFactory: (...args: any[]) => T;
  /** The factory's dependencies, in parameter order. */
  readonly deps?: readonly Injectable[];
}

/** How the composition root obtains the value of a token. */
export type Provider<T = unknown> = ValueProvider<T> | ClassProvider<T> | FactoryProvider<T>;

/** A token with its provider, as listed by a module or the platform. */
export interface Registration<T = unknown> {
  /** The key asked for. */
  readonly provide: Injectable<T>;
  /** How its value is obtained. */
  readonly provider: Provider<T>;
}

/**
 * The constructor dependencies of classes, in parameter order. Derived by the CLI as
 * `<context>.dependencies.ts`, or written by hand.
 */
export type DependencyManifest = ReadonlyMap<
  abstract new (...args: any[]) => unknown,
  readonly Injectable[]
>;
