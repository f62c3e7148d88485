// deno-lint-ignore-file no-explicit-any
import type { AnyClass, DeclarationKind } from "../declarations/declaration.ts";
import { declarationKindsOf } from "../declarations/declaration.ts";
import { ErrorReporter, loggingErrorReporter } from "../errors/error_reporter.ts";
import { IdGenerator, uuidv7Ids } from "../ids/id.ts";
import { consoleLogger, Logger } from "../logging/logger.ts";
import { summarisingLogger } from "../logging/summarising_logger.ts";
import { AccessPolicy, accessPolicy } from "../messaging/access_policy.ts";
import { CommandBus, QueryBus } from "../messaging/buses.ts";
import { Dispatcher, type MessageRoute } from "../messaging/dispatcher.ts";
import { handlerDeclarations, type MessageHandler } from "../messaging/handles.ts";
import {
  AuthorizedCommand,
  AuthorizedQuery,
  Command,
  type MessageClass,
  Query,
} from "../messaging/message.ts";
import { requirements } from "../messaging/requires.ts";
import { conflictRetries } from "../messaging/retry_on_conflict.ts";
import { Clock, systemClock } from "../time/clock.ts";
import { InMemoryTransactions } from "../unit_of_work/in_memory_transactions.ts";
import { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { Container } from "./container.ts";
import type { Module } from "./module.ts";
import type { Registration } from "./provider.ts";
import type { Injectable } from "./token.ts";

/** A declared class found in a module, with its metadata of one kind. */
export interface Declared<M> {
  /** The class. */
  readonly target: AnyClass;
  /** What its decorator or builder recorded. */
  readonly metadata: M;
  /** The module that declares it. */
  readonly module: Module;
}

/** What a plugin (http, jobs) is given to plug into the application. */
export interface CompositionRoot {
  /** The container, with every module's classes and providers registered. */
  readonly container: Container;
  /** The modules, in the order given. */
  readonly modules: readonly Module[];
  /** The application's clock. */
  readonly clock: Clock;
  /** The application's error reporter. */
  readonly errorReporter: ErrorReporter;
  /** The application's logger: every line a plugin writes goes through it. */
  readonly logger: Logger;
  /** The command bus. */
  readonly commands: CommandBus;
  /** The query bus. */
  readonly queries: QueryBus;
  /** Every declared class of a kind, sorted by module then class name. */
  declarations<M>(kind: DeclarationKind<M>): readonly Declared<M>[];
  /** Runs `fn` when the application starts. */
  onStart(fn: () => Promise<void> | void): void;
  /** Runs `fn` when the application stops (in reverse order of registration). */
  onStop(fn: () => Promise<void> | void): void;
}

/** Plugs a part (the HTTP pipeline, the job worker) into the application. */
export interface ApplicationPlugin<Api = unknown> {
  /** The plugin's name, for messages. */
  readonly name: string;
  /** Reads the declarations, registers what it needs and answers its API. */
  setup(root: CompositionRoot): Api;
}

/** The options of {@linkcode composeApplication}. */
export interface ApplicationOptions<P extends Record<string, ApplicationPlugin>> {
  /** The modules of the bounded contexts. */
  readonly modules: readonly Module[];
  /** Platform providers (database, adapters) shared by the modules. */
  readonly providers?: readonly Registration[];
  /** Decides permissions; by default nothing is granted but to the system actor. */
  readonly accessPolicy?: AccessPolicy;
  /** The clock (default: the system clock). */
  readonly clock?: Clock;
  /** Opens units of work (default: in memory). */
  readonly transactions?: TransactionManager;
  /**
   * Where log lines go (default: a `summarisingLogger` over a text `consoleLogger`, at level
   * info, on the application's clock): one line per problem, repeats counted and summarised.
   */
  readonly logger?: Logger;
  /**
   * Where unexpected errors go (default: `loggingErrorReporter` over the logger: an outage is one
   * `warn` line with its code, a bug one `error` line with its stack).
   */
  readonly errorReporter?: ErrorReporter;
  /** The parts plugged in, by the name under which the application exposes them. */
  readonly plugins?: P;
}

/** A composed application: its buses, its container and the APIs of its plugins. */
export type Application<P extends Record<string, ApplicationPlugin> = Record<never, never>> =
  & {
    /** The command bus. */
    readonly commands: CommandBus;
    /** The query bus. */
    readonly queries: QueryBus;
    /** The application's clock. */
    readonly clock: Clock;
    /** The container. */
    readonly container: Container;
    /** The value of a token. */
    resolve<T>(key: Injectable<T>): T;
    /** Starts the plugins (the worker, the relay). */
    start(): Promise<void>;
    /** Stops them, in reverse order. */
    stop(): Promise<void>;
  }
  & { readonly [K in keyof P]: P[K] extends ApplicationPlugin<infer A> ? A : never };

const nonInjectableKinds = new Set(["requires", "retry-on-conflict"]);

/**
 * Wires the modules into one application: registers every declared class and provider,
 * compiles the message routes, checks that every dependency is provided, and sets up the
 * plugins. Every mistake is refused here, naming the class, token or module.
 *
 * @example
 * ```ts ignore
 * const application = composeApplication({
 *   modules: [schedulingModule],
 *   accessPolicy: accessPolicy({ grants }),
 *   plugins: { http: httpPlugin(), backgroundJobs: jobsPlugin({ store }) },
 * });
 * ```
 */
export function composeApplication<
  P extends Record<string, ApplicationPlugin> = Record<never, never>,
>(options: ApplicationOptions<P>): Application<P> {
  const container = new Container();
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? summarisingLogger(consoleLogger({ clock }), { clock });
  const errorReporter = options.errorReporter ?? loggingErrorReporter(logger);
  const transactions = options.transactions ?? new InMemoryTransactions();
  const policy = options.accessPolicy ?? accessPolicy();

  container.register(Clock, { useValue: clock });
  container.register(ErrorReporter, { useValue: errorReporter });
  container.register(Logger, { useValue: logger });
  container.register(TransactionManager, { useValue: transactions });
  container.register(AccessPolicy, { useValue: policy });
  container.register(IdGenerator, { useValue: uuidv7Ids });
  container.registerAll(options.providers ?? []);

  const moduleNames = new Set<string>();
  const owners = new Map<AnyClass, string>();
  for (const module of options.modules) {
    if (moduleNames.has(module.name)) {
      throw new Error(`Module '${module.name}' is registered twice`);
    }
    moduleNames.add(module.name);
    container.registerAll(module.providers, `module '${module.name}'`);
    for (const target of module.declarations) {
      const owner = owners.get(target);
      if (owner !== undefined) {
        throw new Error(
          `'${target.name}' is declared by module '${owner}' and module '${module.name}'`,
        );
      }
      owners.set(target, module.name);
      const kinds = declarationKindsOf(target);
      if (kinds.length === 0) {
        throw new Error(
          `Module '${module.name}' declares '${target.name}', which carries no kit decorator`,
        );
      }
      if (kinds.some((kind) => !nonInjectableKinds.has(kind))) {
        container.registerClass(
          target as new (...args: any[]) => unknown,
          module.dependencies,
          `module '${module.name}'`,
        );
      }
    }
  }

  const declarations = <M>(kind: DeclarationKind<M>): Declared<M>[] => {
    const found: Declared<M>[] = [];
    for (const module of options.modules) {
      for (const target of module.declarations) {
        const metadata = kind.read(target);
        if (metadata !== undefined) found.push({ target, metadata, module });
      }
    }
    return found.sort((a, b) =>
      a.module.name.localeCompare(b.module.name) || a.target.name.localeCompare(b.target.name)
    );
  };

  const dispatcher = new Dispatcher(compileRoutes(declarations, container), policy, transactions);
  container.register(CommandBus, { useValue: dispatcher });
  container.register(QueryBus, { useValue: dispatcher });

  const starts: (() => Promise<void> | void)[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  const root: CompositionRoot = {
    container,
    modules: options.modules,
    clock,
    errorReporter,
    logger,
    commands: dispatcher,
    queries: dispatcher,
    declarations,
    onStart: (fn) => void starts.push(fn),
    onStop: (fn) => void stops.push(fn),
  };

  const apis: Record<string, unknown> = {};
  for (const [name, plugin] of Object.entries(options.plugins ?? {})) {
    apis[name] = plugin.setup(root);
  }
  container.checkDependencies();

  let started = false;
  const application = {
    ...apis,
    commands: dispatcher as CommandBus,
    queries: dispatcher as QueryBus,
    clock,
    container,
    resolve: <T>(key: Injectable<T>): T => container.resolve(key),
    async start(): Promise<void> {
      if (started) return;
      started = true;
      for (const fn of starts) await fn();
    },
    async stop(): Promise<void> {
      if (!started) return;
      started = false;
      try {
        for (const fn of [...stops].reverse()) await fn();
      } finally {
        // The repeats counted so far are written before the process ends.
        (logger as { flush?: () => void }).flush?.();
      }
    },
  };
  return application as unknown as Application<P>;
}

function compileRoutes(
  declarations: <M>(kind: DeclarationKind<M>) => readonly Declared<M>[],
  container: Container,
): Map<MessageClass, MessageRoute> {
  const routes = new Map<MessageClass, MessageRoute>();
  const handlerOf = new Map<MessageClass, Declared<unknown>>();
  for (const declared of declarations(handlerDeclarations)) {
    const message = declared.metadata.message;
    const existing = handlerOf.get(message);
    if (existing !== undefined) {
      throw new Error(
        `'${message.name}' has two handlers: '${existing.target.name}' (module '${existing.module.name}') ` +
          `and '${declared.target.name}' (module '${declared.module.name}')`,
      );
    }
    if (!isMessageClass(message)) {
      throw new TypeError(
        `'${declared.target.name}' handles '${message.name}', which extends neither Command nor Query`,
      );
    }
    const requirement = requirements.read(message);
    if (requirement === undefined && isAuthorized(message)) {
      throw new Error(
        `'${message.name}' extends an authorized message but declares no permission: decorate it with @Requires(...), or declare it in its module with builder.requires(...)`,
      );
    }
    handlerOf.set(message, declared);
    const target = declared.target;
    routes.set(message, {
      handler: () => container.resolve(target) as MessageHandler,
      requirement,
      retries: conflictRetries.read(message)?.retries ?? 0,
    });
  }
  for (const declared of declarations(requirements)) {
    if (!handlerOf.has(declared.target as MessageClass)) {
      throw new Error(
        `'${declared.target.name}' (module '${declared.module.name}') declares a permission but has no handler`,
      );
    }
  }
  return routes;
}

function isMessageClass(target: AnyClass): boolean {
  return target.prototype instanceof Command || target.prototype instanceof Query;
}

function isAuthorized(target: AnyClass): boolean {
  return target.prototype instanceof AuthorizedCommand ||
    target.prototype instanceof AuthorizedQuery;
}
