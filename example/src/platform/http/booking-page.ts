import { bookingPageCss } from "./booking-page/booking-page.css.ts";
import { bookingPageHtml } from "./booking-page/booking-page.html.ts";
import { bookingPageJs } from "./booking-page/booking-page.js.ts";

/**
 * The Content-Security-Policy of the booking page: its own script, stylesheet and API calls,
 * nothing else (no inline script, no frame, no form posted elsewhere).
 */
export const bookingPagePolicy: string = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const files: Readonly<Record<string, readonly [type: string, body: string]>> = {
  "/book": ["text/html; charset=utf-8", bookingPageHtml],
  "/book/app.js": ["text/javascript; charset=utf-8", bookingPageJs],
  "/book/style.css": ["text/css; charset=utf-8", bookingPageCss],
};

/**
 * The example's booking page (`GET /book`, its script and stylesheet): a patient lists a
 * calendar's free slots for a day and books one, through the API with their token. Plain HTML
 * and a small script, no framework, under {@linkcode bookingPagePolicy}. Answers undefined for
 * any other request.
 */
export function bookingPage(request: Request): Response | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const file = files[new URL(request.url).pathname];
  if (file === undefined) return undefined;
  return new Response(request.method === "HEAD" ? null : file[1], {
    headers: {
      "content-type": file[0],
      "content-security-policy": bookingPagePolicy,
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
    },
  });
}
