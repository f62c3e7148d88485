/**
 * `deno task docs:generate`: writes the documents derived from the code: the OpenAPI document of
 * the application (`openapi/<project>.yaml`) and of each service (`openapi/<service>.yaml`), the
 * AsyncAPI document and the event catalog (`docs/integration/`). With `--check`
 * (`deno task docs:check`), writes nothing and exits 1 naming each stale file.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import { composePlatform, modules } from "../compose-application.ts";
import { asyncApiDocument, eventCatalog, type PublishedEvent } from "./integration-docs.ts";
import { isIntegrationEventDefinition } from "./is-event.ts";

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

/** The project as `kit.config.json` records it: its name and services. */
interface Project {
  readonly name: string;
  readonly services?: readonly { readonly name: string }[];
}

/** The OpenAPI document of each service of the project, by service name. */
async function serviceDocuments(config: Project): Promise<[string, Record<string, unknown>][]> {
  const documents: [string, Record<string, unknown>][] = [];
  for (
    const { name } of [...(config.services ?? [])].sort((a, b) => a.name.localeCompare(b.name))
  ) {
    const service = await import(join(root, "apps", name, "service.ts")) as {
      composeService(): { http: { openapi(): Record<string, unknown> } };
    };
    documents.push([name, service.composeService().http.openapi()]);
  }
  return documents;
}

/** Every generated document, by path from the project's root. */
export async function generatedDocs(): Promise<Map<string, string>> {
  const config = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8")) as Project;
  const name = config.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const application = composePlatform();
  const events = await publishedEvents();
  const docs = new Map<string, string>([
    [`openapi/${name || "app"}.yaml`, stringify(application.http.openapi(), { lineWidth: 100 })],
  ]);
  for (const [service, document] of await serviceDocuments(config)) {
    docs.set(`openapi/${service}.yaml`, stringify(document, { lineWidth: 100 }));
  }
  docs.set(
    "docs/integration/asyncapi.yaml",
    asyncApiDocument(`${config.name} events`, events, modules),
  );
  docs.set("docs/integration/event-catalog.md", eventCatalog(events, modules));
  return docs;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  if (check && !(await Deno.stat(join(root, "openapi")).catch(() => undefined))) {
    // verify runs the check: a project that never generated its documents has none stale.
    console.log("docs:check: no document generated yet (deno task docs:generate writes them)");
    Deno.exit(0);
  }
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
    console.error(`docs:check: stale ${stale.join(", ")} (run 'deno task docs:generate')`);
    Deno.exit(1);
  }
  console.log(
    check
      ? "docs:check: every document is current"
      : `docs:generate: wrote ${stale.length} file(s)`,
  );
}
