// deno-lint-ignore-file no-explicit-any
import type { ExecutionContext } from "../actor/execution_context.ts";
import {
  classDecorator,
  declarationKind,
  type KitClassDecorator,
} from "../declarations/declaration.ts";
import type { DeclarationKind } from "../declarations/declaration.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { Message, MessageClass, ResultOf } from "./message.ts";

/** What a handler is given beside its message. */
export interface HandlerContext {
  /** The execution context of the work. */
  readonly execution: ExecutionContext;
  /** The unit of work of a command (absent for a query run outside one). */
  readonly unitOfWork?: UnitOfWork;
}

/** Handles one message class. */
export interface MessageHandler<M extends Message = Message> {
  /** Runs the use case. */
  handle(message: M, context: HandlerContext): Promise<ResultOf<M>>;
}

/** What `@Handles` records on a handler class. */
export interface HandlerDeclaration {
  /** The message class it handles. */
  readonly message: MessageClass;
}

/** The declaration kind of handlers. */
export const handlerDeclarations: DeclarationKind<HandlerDeclaration> = declarationKind<
  HandlerDeclaration
>("handler");

/**
 * Declares the class as the handler of a command or query class. The handler's `handle` must
 * take that message and answer its result.
 *
 * @example
 * ```ts ignore
 * @Handles(CancelAppointment)
 * class CancelAppointmentHandler {
 *   constructor(private readonly appointments: Appointments) {}
 *   async handle(command: CancelAppointment): Promise<void> { ... }
 * }
 * ```
 */
export function Handles<M extends Message>(
  message: MessageClass<M>,
): KitClassDecorator<
  abstract new (...args: any[]) => {
    handle(message: M, context: HandlerContext): Promise<ResultOf<M>>;
  }
> {
  if (typeof message !== "function") {
    throw new TypeError(`@Handles() takes a command or query class, got ${String(message)}`);
  }
  return classDecorator("Handles", (target) => {
    handlerDeclarations.record(target, { message });
  });
}
