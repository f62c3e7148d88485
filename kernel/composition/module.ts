// deno-lint-ignore-file no-explicit-any
import type { AnyClass } from "../declarations/declaration.ts";
import { backgroundJobDeclarer, type BackgroundOptions } from "../jobs/background_declaration.ts";
import type { BackgroundJobClass, BackgroundJobExecution } from "../jobs/job_queue.ts";
import {
  scheduledJobDeclarer,
  type ScheduledOptions,
  type ScheduledTick,
} from "../jobs/scheduled_declaration.ts";
import { eventHandlerDeclarer } from "../events/handles_event.ts";
import type { IntegrationEvent, IntegrationEventDefinition } from "../events/integration_event.ts";
import { type HandlerContext, handlerDeclarations } from "../messaging/handles.ts";
import type { Message, MessageClass, ResultOf } from "../messaging/message.ts";
import type { Permission } from "../messaging/permissions.ts";
import { requirementDeclarer, type Resource } from "../messaging/requires.ts";
import {
  type ProcessEventEntry,
  ProcessManager,
  type ProcessManagerOptions,
  type ProcessTransitions,
} from "../process/process_manager.ts";
import type { DependencyManifest, Provider, Registration } from "./provider.ts";
import type { Injectable } from "./token.ts";

/** The tokens of a constructor's parameters `A`, in order: each the token of its parameter's type. */
export type Dependencies<A extends readonly unknown[]> = {
  readonly [K in keyof A]: Injectable<A[K]>;
};

/** A class's name for messages, or what was given instead of a class. */
function nameOf(target: unknown): string {
  return typeof target === "function" ? target.name : String(target);
}

/** `deps` when there is one per constructor parameter (or the constructor takes none), else refused. */
function checkedDeps(
  target: AnyClass,
  deps: readonly unknown[] | undefined,
  declaredBy: string,
): readonly Injectable[] | undefined {
  if (typeof target !== "function") throw new TypeError(`${declaredBy} takes a class`);
  if ((deps?.length ?? 0) < target.length) {
    throw new TypeError(
      `${declaredBy} needs deps: the tokens of its ${target.length} constructor parameter(s), in order`,
    );
  }
  return deps as readonly Injectable[] | undefined;
}

/** A bounded context's module: its declared classes, their dependencies, its own providers. */
export interface Module {
  /** The context's name (kebab-case). */
  readonly name: string;
  /** The decorated classes of the context (its derived `<context>.declarations.ts`). */
  readonly declarations: readonly AnyClass[];
  /** Constructor dependencies of its classes (its derived `<context>.dependencies.ts`). */
  readonly dependencies: DependencyManifest;
  /** Providers of the context's ports (repositories, adapters). */
  readonly providers: readonly Registration[];
}

/** What a module is made of when declared as data. */
export interface ModuleOptions {
  /** The decorated classes. */
  readonly declarations?: readonly AnyClass[];
  /** Constructor dependencies of the classes. */
  readonly dependencies?: DependencyManifest;
  /** Providers of the context's ports. */
  readonly providers?: readonly Registration[];
}

/** Builds a module by hand, without decorators or derived files. */
export class ModuleBuilder {
  readonly #declarations: AnyClass[] = [];
  readonly #dependencies = new Map<AnyClass, readonly Injectable[]>();
  readonly #providers: Registration[] = [];
  readonly #jobNames = new Map<string, string>();

  /** Lists a declared class, with its constructor dependencies. */
  declare(target: AnyClass, options: { deps?: readonly Injectable[] } = {}): this {
    this.#declarations.push(target);
    if (options.deps !== undefined) this.#dependencies.set(target, options.deps);
    return this;
  }

  /**
   * Declares `job` as a background job (the builder form of `@Background`): the same options, the
   * same checks, the same job to the worker and the dashboard. `deps` are the tokens of its
   * constructor's parameters, in order; a token of another type does not compile.
   *
   * @example
   * ```ts ignore
   * defineModule("scheduling", (builder) => {
   *   builder.backgroundJob(ClearCalendar, { timeout: "30m", deps: [CommandBus] });
   * });
   * ```
   */
  backgroundJob<A extends readonly unknown[]>(
    job: BackgroundJobClass & (abstract new (...args: A) => unknown),
    options: BackgroundOptions & { readonly deps?: Dependencies<A> } = {},
  ): this {
    const declaredBy = `builder.backgroundJob(${nameOf(job)})`;
    if (typeof job !== "function") throw new TypeError(`${declaredBy} takes a class`);
    const { deps: typedDeps, ...settings } = options;
    const record = backgroundJobDeclarer(settings, declaredBy);
    const deps = checkedDeps(job, typedDeps, declaredBy);
    this.#checkJobName(job);
    record(job);
    this.#jobNames.set(job.jobName, job.name);
    return this.declare(job, deps === undefined ? {} : { deps });
  }

  /**
   * Declares `handlerClass` as the handler of the command or query class `message` (the builder
   * form of `@Handles`): its `handle` must take that message and answer its result, and `deps` are
   * the tokens of its constructor's parameters, in order; anything else does not compile.
   *
   * @example
   * ```ts ignore
   * defineModule("scheduling", (builder) => {
   *   builder.handler(CancelAppointment, CancelAppointmentHandler, { deps: [Appointments] });
   * });
   * ```
   */
  handler<M extends Message, A extends readonly unknown[]>(
    message: MessageClass<M>,
    handlerClass: abstract new (
      ...args: A
    ) => { handle(message: M, context: HandlerContext): Promise<ResultOf<M>> },
    options: { readonly deps?: Dependencies<A> } = {},
  ): this {
    const declaredBy = `builder.handler(${nameOf(handlerClass)})`;
    if (typeof message !== "function") {
      throw new TypeError(`${declaredBy} takes a command or query class, got ${String(message)}`);
    }
    const deps = checkedDeps(handlerClass, options.deps, declaredBy);
    handlerDeclarations.record(handlerClass, { message });
    return this.declare(handlerClass, deps === undefined ? {} : { deps });
  }

  /**
   * Declares the permission the command or query class `message` requires (the builder form of
   * `@Requires`): the same requirement on the message, decided by the bus for the message's actor
   * whoever sends it (a route, a job, an event handler). `resource` takes the message, typed as
   * it, and names the element it acts on. The same checks as the decorator's: a permission from
   * `definePermissions()`, one per message (a second, by either form, is refused).
   *
   * @example
   * ```ts ignore
   * defineModule("scheduling", (builder) => {
   *   builder.requires(ClearCalendar, permissions["calendar.clear"], {
   *     resource: (command) => ({ type: "calendar", id: command.calendarId }),
   *   });
   *   builder.handler(ClearCalendar, ClearCalendarHandler, { deps: [JobQueue] });
   * });
   * ```
   */
  requires<M extends Message>(
    message: MessageClass<M>,
    permission: Permission,
    options: { readonly resource?: (message: M) => Resource } = {},
  ): this {
    if (typeof message !== "function") {
      throw new TypeError(
        `builder.requires() takes a command or query class, got ${String(message)}`,
      );
    }
    requirementDeclarer(permission, options, `builder.requires(${nameOf(message)})`)(message);
    return this.declare(message);
  }

  /**
   * Declares `handlerClass` as a consumer of the integration event `event` (the builder form of
   * `@HandlesEvent`): the same name rule (`<context>.<reaction>`, its identity in the outbox), a
   * `handle` that takes that event's payload, and `deps` of its constructor's types.
   *
   * @example
   * ```ts ignore
   * defineModule("notifications", (builder) => {
   *   builder.eventHandler(AppointmentBooked, SendBookingConfirmation, {
   *     name: "notifications.scheduling-appointment-booked",
   *     deps: [CommandBus],
   *   });
   * });
   * ```
   */
  eventHandler<Payload, A extends readonly unknown[]>(
    event: IntegrationEventDefinition<Payload>,
    handlerClass: abstract new (
      ...args: A
    ) => { handle(event: IntegrationEvent<Payload>, context: HandlerContext): Promise<void> },
    options: { readonly name: string; readonly deps?: Dependencies<A> },
  ): this {
    const declaredBy = `builder.eventHandler(${nameOf(handlerClass)})`;
    const record = eventHandlerDeclarer(event, options, declaredBy);
    const deps = checkedDeps(handlerClass, options?.deps, declaredBy);
    record(handlerClass);
    return this.declare(handlerClass, deps === undefined ? {} : { deps });
  }

  /**
   * Declares `job` as a scheduled job (the builder form of `@Scheduled`): run at every tick of
   * `every`, with the background-job options of each run; `run` takes the tick, and `deps` are
   * the tokens of its constructor's parameters, in order. The same checks as the decorator's.
   *
   * @example
   * ```ts ignore
   * defineModule("notifications", (builder) => {
   *   builder.scheduledJob(SendReminders, { every: "1h", deps: [CommandBus] });
   * });
   * ```
   */
  scheduledJob<A extends readonly unknown[]>(
    job:
      & BackgroundJobClass<ScheduledTick>
      & (abstract new (...args: A) => {
        run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void>;
      }),
    options: ScheduledOptions & { readonly deps?: Dependencies<A> },
  ): this {
    const declaredBy = `builder.scheduledJob(${nameOf(job)})`;
    if (typeof job !== "function") throw new TypeError(`${declaredBy} takes a class`);
    const { deps: typedDeps, ...settings } = options ?? ({} as never);
    const record = scheduledJobDeclarer(settings, declaredBy);
    const deps = checkedDeps(job, typedDeps, declaredBy);
    this.#checkJobName(job);
    record(job);
    this.#jobNames.set(job.jobName, job.name);
    return this.declare(job, deps === undefined ? {} : { deps });
  }

  #checkJobName(job: BackgroundJobClass): void {
    const earlier = this.#jobNames.get(job.jobName);
    if (earlier !== undefined) {
      throw new Error(
        `Background job name '${job.jobName}' is declared twice: '${earlier}' and '${job.name}'`,
      );
    }
  }

  /**
   * Declares `processClass` as a process manager (the builder form of `@ProcessManager`): its
   * methods must be the transitions the options name.
   */
  processManager<
    S,
    const Start extends ProcessEventEntry,
    const Handle extends ProcessEventEntry = never,
    const D extends Readonly<Record<string, string>> = Record<never, string>,
  >(
    processClass: abstract new (...args: any[]) => ProcessTransitions<S, Start, Handle, D>,
    options: ProcessManagerOptions<S, Start, Handle, D>,
    dependencies: { deps?: readonly Injectable[] } = {},
  ): this {
    ProcessManager(options)(processClass);
    return this.declare(processClass, dependencies);
  }

  /** Provides a port of the context. */
  provide<T>(provide: Injectable<T>, provider: Provider<T>): this {
    this.#providers.push({ provide, provider });
    return this;
  }

  /** The module. */
  build(name: string): Module {
    return makeModule(name, {
      declarations: this.#declarations,
      dependencies: this.#dependencies,
      providers: this.#providers,
    });
  }
}

/**
 * Defines a context's module, as data, with a builder, or both: the data of its derived files,
 * then what `build` declares by hand (the builder style's jobs).
 *
 * @example From the derived files
 * ```ts ignore
 * export const schedulingModule = defineModule("scheduling", {
 *   declarations: schedulingDeclarations,
 *   dependencies: schedulingDependencies,
 *   providers: [{ provide: Appointments, provider: { useClass: PostgresAppointments, deps: [Sql] } }],
 * });
 * ```
 *
 * @example The derived files, and a job declared with the builder
 * ```ts ignore
 * export const schedulingModule = defineModule("scheduling", {
 *   declarations: schedulingDeclarations,
 *   dependencies: schedulingDependencies,
 * }, (builder) => {
 *   builder.backgroundJob(ClearCalendar, { timeout: "30m", deps: [CommandBus] });
 * });
 * ```
 */
export function defineModule(
  name: string,
  definition: ModuleOptions | ((builder: ModuleBuilder) => void),
  build?: (builder: ModuleBuilder) => void,
): Module {
  if (typeof definition === "function") {
    if (build !== undefined) {
      throw new TypeError(
        `Module '${name}' takes its options, then a builder function: not two functions`,
      );
    }
    const builder = new ModuleBuilder();
    definition(builder);
    return builder.build(name);
  }
  if (build === undefined) return makeModule(name, definition);
  const builder = new ModuleBuilder();
  build(builder);
  const built = builder.build(name);
  return makeModule(name, {
    declarations: [...(definition.declarations ?? []), ...built.declarations],
    dependencies: new Map([...(definition.dependencies ?? []), ...built.dependencies]),
    providers: [...(definition.providers ?? []), ...built.providers],
  });
}

function makeModule(name: string, options: ModuleOptions): Module {
  if (typeof name !== "string" || !/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new TypeError(
      `Invalid module name ${JSON.stringify(name)}: use the context's kebab-case name`,
    );
  }
  const seen = new Set<AnyClass>();
  for (const target of options.declarations ?? []) {
    if (typeof target !== "function") {
      throw new TypeError(`Module '${name}' declares ${String(target)}, which is not a class`);
    }
    if (seen.has(target)) throw new Error(`Module '${name}' declares '${target.name}' twice`);
    seen.add(target);
  }
  return Object.freeze({
    name,
    declarations: Object.freeze([...(options.declarations ?? [])]),
    dependencies: options.dependencies ?? new Map(),
    providers: Object.freeze([...(options.providers ?? [])]),
  });
}
