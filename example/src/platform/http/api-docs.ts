import swaggerUi from "swagger-ui-dist";
import type { SwaggerUiAssets } from "@kit/http";

export { apiDocsPolicy } from "@kit/http";

/**
 * Swagger UI's script and stylesheet, read from the npm package `swagger-ui-dist` (no CDN) on
 * first use: the HTTP plugin serves them with the API docs page (`httpPlugin({ docs })`), under
 * its Content-Security-Policy. Reading files is the runtime's business, so it is done here.
 */
export async function swaggerUiAssets(): Promise<SwaggerUiAssets> {
  const dir = swaggerUi.getAbsoluteFSPath();
  return {
    script: await Deno.readTextFile(`${dir}/swagger-ui-bundle.js`),
    stylesheet: await Deno.readTextFile(`${dir}/swagger-ui.css`),
  };
}
