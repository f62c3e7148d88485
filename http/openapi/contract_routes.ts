import { stringify } from "yaml";

/** Where the HTTP plugin serves the OpenAPI document (see `HttpPluginOptions.openapi`). */
export interface OpenApiRouteOptions {
  /**
   * Its path (default `/openapi.json`): JSON, or YAML to `Accept: application/yaml`; a path
   * ending in `.json` serves YAML at the same path ending in `.yaml` too.
   */
  readonly path?: string;
}

/** The scripts and stylesheet of Swagger UI (`swagger-ui-dist`), as text. */
export interface SwaggerUiAssets {
  /** `swagger-ui-bundle.js`. */
  readonly script: string;
  /** `swagger-ui.css`. */
  readonly stylesheet: string;
}

/** Where and how the HTTP plugin serves the API docs page (see `HttpPluginOptions.docs`). */
export interface DocsRouteOptions {
  /** Its path (default `/docs`); its assets are served under it. */
  readonly path?: string;
  /** The page's title (default: the document's `info.title`). */
  readonly title?: string;
  /**
   * Swagger UI's assets (from npm `swagger-ui-dist`, served from this server: no CDN), or a
   * function answering them, called on the first request of the page. Reading a package's
   * files is the runtime's business: on Deno and Node, read `swagger-ui-bundle.js` and
   * `swagger-ui.css` from `swaggerUiDist.getAbsoluteFSPath()`; on Workers, import them as text.
   */
  readonly assets: SwaggerUiAssets | (() => SwaggerUiAssets | Promise<SwaggerUiAssets>);
}

/**
 * The Content-Security-Policy of the API docs page: exactly what it loads, from this server only.
 * Its script and stylesheet (no inline script: the page starts Swagger UI from `init.js`), the
 * document and the requests "Try it out" sends (`connect-src`), the icons its stylesheet draws as
 * `data:` images; no frame, form, plugin or base change.
 */
export const apiDocsPolicy: string = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Answers the contract's own routes; `undefined` for any other request. */
export type ContractRoutes = (
  request: Request,
  path: string,
) => Response | Promise<Response> | undefined;

const nosniff = { "x-content-type-options": "nosniff" };

/**
 * The routes that serve the application's own contract: the OpenAPI document (JSON, and YAML on
 * request) and the API docs page with its assets, each with `X-Content-Type-Options: nosniff`,
 * the page with {@linkcode apiDocsPolicy}. They read no credential. Web-standard: they answer
 * alike on every runtime.
 */
export function contractRoutes(
  document: () => Record<string, unknown>,
  openapi: OpenApiRouteOptions | undefined,
  docs: DocsRouteOptions | undefined,
): ContractRoutes | undefined {
  if (openapi === undefined && docs === undefined) return undefined;
  const jsonPath = openapi === undefined ? undefined : checked(openapi.path ?? "/openapi.json");
  const yamlPath = jsonPath?.endsWith(".json") ? jsonPath.replace(/\.json$/, ".yaml") : undefined;
  const docsPath = docs === undefined ? undefined : checked(docs.path ?? "/docs");
  if (docsPath !== undefined && jsonPath === undefined) {
    throw new TypeError("httpPlugin() docs needs openapi: the page reads the document it serves");
  }
  let json: string | undefined;
  let yaml: string | undefined;
  let assets: Promise<SwaggerUiAssets> | undefined;
  const documentAnswer = (asYaml: boolean): Response => {
    if (asYaml) yaml ??= stringify(document(), { lineWidth: 100 });
    else json ??= JSON.stringify(document());
    return new Response(asYaml ? yaml! : json!, {
      headers: {
        "content-type": asYaml ? "application/yaml; charset=utf-8" : "application/json",
        vary: "accept",
        ...nosniff,
      },
    });
  };
  const page = (type: string, body: string): Response =>
    new Response(body, {
      headers: { "content-type": type, "content-security-policy": apiDocsPolicy, ...nosniff },
    });
  return function contractRoute(request, path) {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    if (path === jsonPath) {
      const accept = request.headers.get("accept") ?? "";
      return documentAnswer(
        /application\/(x-)?yaml/.test(accept) && !/application\/json/.test(accept),
      );
    }
    if (path === yamlPath) return documentAnswer(true);
    if (docsPath === undefined || !(path === docsPath || path.startsWith(docsPath + "/"))) {
      return undefined;
    }
    const rest = path.slice(docsPath.length);
    if (rest === "" || rest === "/") {
      const title = docs!.title ?? String((document().info as { title?: unknown })?.title ?? "API");
      return page("text/html; charset=utf-8", pageOf(title, docsPath));
    }
    if (rest === "/init.js") return page("text/javascript; charset=utf-8", initOf(jsonPath!));
    if (rest !== "/swagger-ui-bundle.js" && rest !== "/swagger-ui.css") return undefined;
    const given = docs!.assets;
    assets ??= Promise.resolve(typeof given === "function" ? given() : given);
    return assets.then((loaded) =>
      rest === "/swagger-ui.css"
        ? page("text/css; charset=utf-8", loaded.stylesheet)
        : page("text/javascript; charset=utf-8", loaded.script)
    );
  };
}

function checked(path: string): string {
  if (typeof path !== "string" || !/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path.endsWith("/")) {
    throw new TypeError(
      `httpPlugin() serves its contract at a plain path ('/openapi.json', '/docs'), got ${
        JSON.stringify(path)
      }`,
    );
  }
  return path;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

function pageOf(title: string, base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(title)}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
  <div id="api-docs"></div>
  <script src="${base}/swagger-ui-bundle.js"></script>
  <script src="${base}/init.js"></script>
</body>
</html>
`;
}

// No online validator: its badge would be an image from another origin.
function initOf(documentPath: string): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentPath)},
  dom_id: "#api-docs",
  deepLinking: true,
  persistAuthorization: true,
  validatorUrl: "none",
});
`;
}
