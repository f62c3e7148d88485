import type { Knex } from "knex";
import type { SqlQuery, SqlRow } from "@kit/jobs/sql";

interface PgConnection {
  query(
    config: string | { name: string; text: string; values: unknown[] },
  ): Promise<{ rows: SqlRow[] }>;
}

interface Connections {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/** The prepared statement name of each text (a statement's text differs by the filters given). */
const names = new Map<string, string>();

function nameOf(statement: { name: string; text: string }): string {
  let name = names.get(statement.text);
  if (name === undefined) {
    name = `kit_${statement.name}_${names.size}`;
    names.set(statement.text, name);
  }
  return name;
}

/**
 * The query of a Knex instance or transaction on `pg`: each statement runs as a named prepared
 * statement (`pg` prepares it once per connection) on the instance's pooled connection, or on
 * the transaction's own; a text without parameters runs as a simple query.
 *
 * @param knex The instance, or a transaction of it.
 * @returns The query.
 */
export function knexQuery(knex: Knex | Knex.Transaction): SqlQuery {
  const client = knex.client as Connections;
  return async function query(statement) {
    const connection = await client.acquireConnection();
    try {
      // A text without parameters may hold many commands (the migrations): sent as it is.
      const { rows } = await connection.query(
        statement.params.length === 0 ? statement.text : {
          name: nameOf(statement),
          text: statement.text,
          values: [...statement.params],
        },
      );
      return rows;
    } finally {
      await client.releaseConnection(connection);
    }
  };
}
