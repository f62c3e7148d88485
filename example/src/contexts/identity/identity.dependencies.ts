// Derived by kit from constructor parameter types. Regenerate, never merge by hand.
import type { DependencyManifest } from "@kit/kernel";

/** The constructor dependencies of the identity context's classes. */
export const identityDependencies: DependencyManifest = new Map<
  abstract new (...args: never[]) => unknown,
  readonly unknown[]
>([]) as DependencyManifest;
