import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** An embedded PostgreSQL (PGlite) served on a loopback port, for `deno task dev`. */
export interface DevDatabase {
  /** The connection URL (one connection at a time: connect with `max: 1`). */
  readonly url: string;
  /** Stops serving and closes the database (its files stay for the next run). */
  stop(): Promise<void>;
}

/**
 * Starts PGlite with its files under `dataDir` (kept between runs) and serves it over the
 * PostgreSQL protocol with `pglite-socket`, so that postgres.js, the repositories and the job store
 * run unchanged. It serves one connection at a time and cannot LISTEN: the job store polls.
 */
export async function startDevDatabase(dataDir: string): Promise<DevDatabase> {
  await Deno.mkdir(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1" });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
