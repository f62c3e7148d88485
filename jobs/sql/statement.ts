/**
 * A statement of the SQL job stores as driver-neutral data: SQL text with positional parameters
 * (`$1`, `$2`, ...) and their values, run by a {@linkcode JobSqlDriver}. The kernel's, shared with
 * its outbox (`@kit/kernel/internal`).
 *
 * @module
 */
import type { SqlStatement } from "@kit/kernel/internal";

export { StatementParams } from "@kit/kernel/internal";

/** One statement: its name (for error messages and prepared-statement reuse), text and values. */
export type JobStatement = SqlStatement;
