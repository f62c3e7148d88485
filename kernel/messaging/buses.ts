// deno-lint-ignore-file no-explicit-any
import { type Token, token } from "../composition/token.ts";
import type { Command, Query, ResultOf } from "./message.ts";

/**
 * Sends commands: decides the declared permission, opens the unit of work (or joins the one
 * under way) and runs the handler.
 */
export interface CommandBus {
  /** Runs the command and answers its result; refuses with `ForbiddenError` (`FORBIDDEN`). */
  execute<C extends Command<any>>(command: C): Promise<ResultOf<C>>;
}

/** The token of the command bus. */
export const CommandBus: Token<CommandBus> = token<CommandBus>("CommandBus");

/** Sends queries: decides the declared permission and runs the handler. */
export interface QueryBus {
  /** Runs the query and answers its result; refuses with `ForbiddenError` (`FORBIDDEN`). */
  execute<Q extends Query<any>>(query: Q): Promise<ResultOf<Q>>;
}

/** The token of the query bus. */
export const QueryBus: Token<QueryBus> = token<QueryBus>("QueryBus");
