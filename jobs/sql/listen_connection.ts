import type { Logger } from "@kit/kernel";

/** A node-postgres client (`pg.Client`) as far as LISTEN needs it. */
export interface ListenConnection {
  /** Runs a statement. */
  query(text: string): Promise<unknown>;
  /** Subscribes to the client's notifications and errors. */
  on(
    event: "notification",
    listener: (message: { channel: string; payload?: string }) => void,
  ): unknown;
  /** Subscribes to the client's errors (a lost connection). */
  on(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * Listens on a channel on a node-postgres connection of its own (for the Knex and Drizzle stores
 * on `pg`); answers the function that stops listening and lets the connection go. A connection
 * lost is logged once (`JOBS_LISTEN_LOST`, warn): workers then fall back to their poll interval.
 *
 * @param connection A dedicated connection, not in a pool.
 * @param release Ends the connection.
 * @param channel The channel (a plain identifier).
 * @param onNotify Called with each notification's payload.
 * @param logger Where a lost connection is logged.
 * @returns The function that stops listening.
 */
export async function listenOnConnection(
  connection: ListenConnection,
  release: () => Promise<void>,
  channel: string,
  onNotify: (payload: string) => void,
  logger: Logger,
): Promise<() => Promise<void>> {
  let lost = false;
  connection.on("error", (error) => {
    if (lost) return;
    lost = true;
    logger.log({
      level: "warn",
      component: "jobs.listen",
      code: "JOBS_LISTEN_LOST",
      message: "The connection listening for new jobs was lost: idle workers poll",
      error,
    });
  });
  connection.on("notification", (message) => {
    if (message.channel === channel) onNotify(message.payload ?? "");
  });
  try {
    await connection.query(`listen "${channel}"`);
  } catch (error) {
    await release();
    throw error;
  }
  return release;
}
