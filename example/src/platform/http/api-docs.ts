import { readFile } from "node:fs/promises";
import swaggerUi from "swagger-ui-dist";
import type { SwaggerUiAssets } from "@kit/http";

/**
 * Swagger UI's script and stylesheet, read from the npm package `swagger-ui-dist` (no CDN) on
 * the first request of the docs page: the HTTP plugin serves them at `/docs` under its
 * Content-Security-Policy (`composePlatform({ docs: swaggerUiAssets })`). Reading an npm
 * package's files needs them on disk: Deno's entry point and the specs serve the page, the Node
 * and Workers bundles do not.
 */
export async function swaggerUiAssets(): Promise<SwaggerUiAssets> {
  const dir = swaggerUi.getAbsoluteFSPath();
  return {
    script: await readFile(`${dir}/swagger-ui-bundle.js`, "utf8"),
    stylesheet: await readFile(`${dir}/swagger-ui.css`, "utf8"),
  };
}
