import { AsyncLocalStorage } from "node:async_hooks";
import type { ExecutionContext } from "../actor/execution_context.ts";
import type { UnitOfWork } from "./unit_of_work.ts";

/**
 * What the work under way runs in: its execution context, and its unit of work once a command
 * opened one. Carried across `await` by the runtime's async context (`AsyncLocalStorage`, which
 * Deno, Node and workerd with `nodejs_compat` provide).
 */
export interface WorkScope {
  /** The execution context of the work. */
  readonly execution: ExecutionContext;
  /** The unit of work the work writes in, once a command opened one. */
  readonly unitOfWork?: UnitOfWork;
}

const storage = new AsyncLocalStorage<WorkScope>();

/** The scope of the work under way, if any. */
export function currentScope(): WorkScope | undefined {
  return storage.getStore();
}

/** The unit of work of the work under way, if one is open. */
export function currentUnitOfWork(): UnitOfWork | undefined {
  return storage.getStore()?.unitOfWork;
}

/** Runs `fn` in the given scope; everything it awaits sees that scope. */
export function runInScope<T>(scope: WorkScope, fn: () => T): T;
/**
 * Runs `fn(argument)` in the given scope; everything it awaits sees that scope (a function of one
 * argument then needs no closure made around it).
 */
export function runInScope<T, A>(scope: WorkScope, fn: (argument: A) => T, argument: A): T;
export function runInScope<T, A>(
  scope: WorkScope,
  fn: ((argument: A) => T) | (() => T),
  argument?: A,
): T {
  return arguments.length > 2
    ? storage.run(scope, fn as (argument: A) => T, argument as A)
    : storage.run(scope, fn as () => T);
}

/**
 * Runs `fn(a, b, c)` in the given scope: as {@linkcode runInScope}, without the closure a call
 * with arguments would need (the bus runs every command this way). Internal to the kernel.
 */
export function runInScopeWith<A, B, C, T>(
  scope: WorkScope,
  fn: (a: A, b: B, c: C) => T,
  a: A,
  b: B,
  c: C,
): T {
  return storage.run(scope, fn, a, b, c);
}
