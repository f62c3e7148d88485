/**
 * A statement as driver-neutral data: SQL text with positional parameters (`$1`, `$2`, ...) and
 * their values, for the outbox's statements (run by `PostgresOutbox` on postgres.js and by
 * `@kit/jobs`' `SqlOutbox` on any driver) and the SQL job stores'.
 *
 * @module
 */

/** One statement: its name (for error messages and prepared-statement reuse), text and values. */
export interface SqlStatement {
  /** The statement's name, as its function is named (`claimDueJobs`). */
  readonly name: string;
  /** The SQL text; parameters are `$1`, `$2`, ... in the order of `params`. */
  readonly text: string;
  /** The values of the parameters: text, numbers, `Date`s and nulls (JSON travels as text). */
  readonly params: readonly unknown[];
}

/** Collects a statement's parameter values and answers each one's placeholder. */
export class StatementParams {
  readonly #values: unknown[] = [];

  /** Adds a value; answers its placeholder (`$3`). */
  add(value: unknown): string {
    this.#values.push(value);
    return `$${this.#values.length}`;
  }

  /** Adds a value as JSON text; answers its placeholder cast to `jsonb`. */
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::text::jsonb`;
  }

  /** The statement of this text over the values added. */
  statement(name: string, text: string): SqlStatement {
    return { name, text, params: this.#values };
  }
}
