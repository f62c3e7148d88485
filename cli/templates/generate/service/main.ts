/**
 * Serves the $context$ service on `PORT` (default 8000), on the environment the application reads
 * (`DATABASE_URL`, the job store of the queue, `JWT_SECRET`): its routes, `/health` and
 * `/openapi.json`.
 */
import { readConfig } from "../../src/platform/config.ts";
import { swaggerUiAssets } from "../../src/platform/http/api-docs.ts";
import { serveApplication } from "../../src/platform/http/serve.ts";
import { readEnvironment } from "../../src/platform/platform-environment.ts";
import { composeService } from "./service.ts";

const config = readConfig(Deno.env.toObject());
const environment = await readEnvironment(config);
const application = composeService({
  ...environment.options,
  docs: swaggerUiAssets,
  startJobs: true,
  startEvents: true,
});
await application.start();
const served = serveApplication(application, { port: config.port });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await served.shutdown();
    await application.stop();
    await environment.close();
    Deno.exit(0);
  });
}
// The ready line after the signal handlers: a SIGTERM sent as soon as it is read is graceful.
console.log(`$context$ listening on ${served.url} (${environment.description})`);
