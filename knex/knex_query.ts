import type { Knex } from "knex";
import type { SqlQuery, SqlRow } from "@kit/jobs/sql";

/**
 * The query of a Knex instance or transaction (`raw`): each `$n` of the statement's text becomes
 * Knex's `?`, its value bound in that place (the texts hold no `?` of their own).
 *
 * @param knex The instance, or a transaction of it.
 * @returns The query.
 */
export function knexQuery(knex: Knex | Knex.Transaction): SqlQuery {
  return async function query(statement) {
    const bindings: unknown[] = [];
    const text = statement.text.replace(/\$(\d+)/g, (_, n: string) => {
      bindings.push(statement.params[Number(n) - 1]);
      return "?";
    });
    const result = await knex.raw(text, bindings as Knex.RawBinding[]);
    return (result as { rows: SqlRow[] }).rows;
  };
}
