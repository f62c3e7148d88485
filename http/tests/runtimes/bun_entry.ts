/**
 * Entry of the Bun bundle: serves the sample application with `Bun.serve` on a free port, sends it
 * the sample requests over HTTP, prints the answers as JSON and stops the server.
 */
import { schedulingApp } from "../../testdata/scheduling_app.ts";
import { describeAnswer, sampleRequests } from "./sample_requests.ts";

/** The part of Bun's global this entry uses (Bun's own types are not a dependency of kit). */
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    development: boolean;
    fetch(request: Request): Response | Promise<Response>;
  }): { readonly port: number; stop(closeActiveConnections?: boolean): Promise<void> };
};

const http = schedulingApp();
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  development: false,
  fetch: (request) => http.fetch(request),
});
try {
  const out: string[] = [];
  for (const request of sampleRequests(`http://127.0.0.1:${server.port}`)) {
    out.push(await describeAnswer(await fetch(request)));
  }
  console.log(JSON.stringify(out));
} finally {
  await server.stop(true);
}
