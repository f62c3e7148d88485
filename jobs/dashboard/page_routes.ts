import { defineRoute, type FunctionRoute } from "@kit/http";
import { dashboardCss } from "./page/dashboard_css.ts";
import { dashboardHtml } from "./page/dashboard_html.ts";
import { dashboardJs } from "./page/page_script.generated.ts";

/**
 * The Content-Security-Policy of the dashboard page: its own script, stylesheet and API calls,
 * nothing else (no inline script or style, no image, frame, form post or base change).
 */
export const jobsDashboardPagePolicy: string = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The page's routes: `GET <prefix>` the HTML, `GET <prefix>/assets/dashboard.css` and `.js`.
 * They are open to anyone (`security: []`): they hold no data, the script reads it from the JSON
 * routes with the operator's token. Each answer carries {@linkcode jobsDashboardPagePolicy}.
 */
export function dashboardPageRoutes(
  options: {
    readonly prefix: string;
    readonly tags: readonly string[];
    readonly outbox?: boolean;
    readonly processes?: boolean;
  },
): readonly FunctionRoute[] {
  const prefix = options.prefix.replace(/\/+$/, "");
  const file = (type: string, body: string) => ({
    status: 200,
    body,
    headers: {
      "content-type": type,
      "content-security-policy": jobsDashboardPagePolicy,
      "cache-control": "no-cache",
      "referrer-policy": "no-referrer",
    },
  });
  const html = dashboardHtml(prefix, {
    outbox: options.outbox === true,
    processes: options.processes === true,
  });
  const text = { 200: { description: "The file" } } as const;
  return [
    defineRoute({
      method: "GET",
      path: prefix,
      operationId: "jobsDashboardPage",
      summary:
        "The dashboard page (public: it holds no data; its script reads the routes below with the operator's token)",
      tags: options.tags,
      security: [],
      responses: { 200: { description: "The page (text/html)" } },
    }, () => file("text/html; charset=utf-8", html)),
    defineRoute({
      method: "GET",
      path: `${prefix}/assets/dashboard.css`,
      operationId: "jobsDashboardStylesheet",
      summary: "The dashboard page's stylesheet (public)",
      tags: options.tags,
      security: [],
      responses: text,
    }, () => file("text/css; charset=utf-8", dashboardCss)),
    defineRoute({
      method: "GET",
      path: `${prefix}/assets/dashboard.js`,
      operationId: "jobsDashboardScript",
      summary: "The dashboard page's script (public)",
      tags: options.tags,
      security: [],
      responses: text,
    }, () => file("text/javascript; charset=utf-8", dashboardJs)),
  ];
}
