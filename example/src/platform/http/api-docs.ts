import swaggerUi from "swagger-ui-dist";

/**
 * The API docs page (Swagger UI, served from the npm package, no CDN) at `/docs`, reading the
 * OpenAPI document at `/openapi.json`; "Try it out" sends real requests to this server.
 * Answers undefined for any other path.
 */
export async function apiDocs(
  openapi: Record<string, unknown>,
): Promise<(request: Request) => Response | undefined> {
  const dir = swaggerUi.getAbsoluteFSPath();
  const assets = new Map<string, { body: string; type: string }>([
    ["/docs/swagger-ui-bundle.js", {
      body: await Deno.readTextFile(`${dir}/swagger-ui-bundle.js`),
      type: "text/javascript; charset=utf-8",
    }],
    ["/docs/swagger-ui.css", {
      body: await Deno.readTextFile(`${dir}/swagger-ui.css`),
      type: "text/css; charset=utf-8",
    }],
    ["/docs", { body: page, type: "text/html; charset=utf-8" }],
    ["/openapi.json", { body: JSON.stringify(openapi), type: "application/json" }],
  ]);
  return (request) => {
    if (request.method !== "GET") return undefined;
    const asset = assets.get(new URL(request.url).pathname);
    return asset && new Response(asset.body, { headers: { "content-type": asset.type } });
  };
}

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Scheduling API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="api-docs"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: "/openapi.json",
      dom_id: "#api-docs",
      deepLinking: true,
      persistAuthorization: true,
    });
  </script>
</body>
</html>
`;
