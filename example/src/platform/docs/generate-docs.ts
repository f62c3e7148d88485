/**
 * `deno task docs:generate`: writes the documents derived from the running code, the OpenAPI
 * document (`openapi/scheduling.yaml`), the AsyncAPI document and the event catalog
 * (`docs/integration/`). With `--check`, writes nothing and exits 1 naming each stale file (CI).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isIntegrationEventDefinition } from "./is-event.ts";
import { stringify } from "yaml";
import { composePlatform, modules } from "../compose-application.ts";
import { connectDatabase } from "../database/database.ts";
import { asyncApiDocument, eventCatalog, type PublishedEvent } from "./integration-docs.ts";

const root = new URL("../../../", import.meta.url).pathname;

async function publishedEvents(): Promise<PublishedEvent[]> {
  const events: PublishedEvent[] = [];
  const contexts = (await readdir(join(root, "src/contexts"))).sort();
  for (const context of contexts) {
    const dir = join(root, "src/contexts", context, "published-language");
    const files = (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith(".event.ts")).sort();
    for (const file of files) {
      const exported = await import(join(dir, file));
      for (const value of Object.values(exported)) {
        if (isIntegrationEventDefinition(value)) events.push({ context, definition: value });
      }
    }
  }
  return events;
}

/** Every generated document, by path from the project's root. */
export async function generatedDocs(): Promise<Map<string, string>> {
  // The client never connects: composing only reads the declarations.
  const sql = connectDatabase("postgres://docs@127.0.0.1:1/none", { max: 1 });
  const application = composePlatform({ sql, jwtSecret: new Uint8Array(32) });
  const events = await publishedEvents();
  const docs = new Map<string, string>([
    ["openapi/scheduling.yaml", stringify(application.http.openapi(), { lineWidth: 100 })],
    ["docs/integration/asyncapi.yaml", asyncApiDocument("Scheduling events", events, modules)],
    ["docs/integration/event-catalog.md", eventCatalog(events, modules)],
  ]);
  await sql.end({ timeout: 0 });
  return docs;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const stale: string[] = [];
  for (const [path, contents] of await generatedDocs()) {
    const current = await readFile(join(root, path), "utf8").catch(() => undefined);
    if (current === contents) continue;
    stale.push(path);
    if (!check) {
      await Deno.mkdir(join(root, path, ".."), { recursive: true });
      await writeFile(join(root, path), contents);
    }
  }
  if (check && stale.length > 0) {
    console.error(`docs:generate: stale ${stale.join(", ")} (run 'deno task docs:generate')`);
    Deno.exit(1);
  }
  console.log(
    check
      ? "docs:generate --check: every document is current"
      : `docs:generate: wrote ${stale.length} file(s)`,
  );
}
