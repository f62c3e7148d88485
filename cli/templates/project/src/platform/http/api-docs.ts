import script from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import stylesheet from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import type { SwaggerUiAssets } from "@kit/http";

/**
 * Swagger UI's script and stylesheet, from the npm package `swagger-ui-dist` (no CDN), imported
 * as text, so that the Node and Workers bundles carry them (about 1.6 MB) and need no files on
 * disk: the HTTP plugin serves them at `/docs` under its Content-Security-Policy
 * (`composePlatform({ docs: swaggerUiAssets })`), on Deno, Node and Workers alike.
 */
export function swaggerUiAssets(): Promise<SwaggerUiAssets> {
  return Promise.resolve({ script, stylesheet });
}
