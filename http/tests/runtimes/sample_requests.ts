/**
 * The requests every runtime answers in the cross-runtime tests, and how to describe an answer
 * (status, content type, body), so that Deno, Node, Bun and workerd can be compared.
 */
import { calendars, schedulingApp } from "../../testdata/scheduling_app.ts";

/**
 * The sample requests: success, validation, guards, domain refusal, function route, 404, and the
 * contract the plugin serves (the document in JSON and YAML, the docs page and its assets).
 */
export function sampleRequests(base: string): Request[] {
  const json = { "content-type": "application/json" };
  return [
    new Request(`${base}/health`),
    new Request(`${base}/appointments/a1/cancellation`, {
      method: "POST",
      headers: { ...json, "x-test-user": "r1;receptionist;p1" },
      body: JSON.stringify({ reason: "ill" }),
    }),
    new Request(`${base}/appointments/a1/cancellation`, {
      method: "POST",
      headers: { ...json, "x-test-user": "r1;receptionist;p1" },
      body: JSON.stringify({ reason: "" }),
    }),
    new Request(`${base}/appointments/a1/cancellation`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ reason: "ill" }),
    }),
    new Request(`${base}/appointments/past/cancellation`, {
      method: "POST",
      headers: { ...json, "x-test-user": "r1;receptionist;p1" },
      body: JSON.stringify({ reason: "x" }),
    }),
    new Request(`${base}/practices/p1/agenda?from=2026-09-01`, {
      headers: { "x-test-user": "pat1;patient;p1" },
    }),
    new Request(`${base}/calendars/c-runtime`, {
      method: "PUT",
      headers: { "x-test-user": "r1;receptionist;p1" },
    }),
    new Request(`${base}/nowhere`),
    new Request(`${base}/openapi.json`, { headers: { "x-test-user": ";" } }),
    new Request(`${base}/openapi.json`, { headers: { accept: "application/yaml" } }),
    new Request(`${base}/openapi.yaml`),
    new Request(`${base}/docs`),
    new Request(`${base}/docs/init.js`),
    new Request(`${base}/docs/swagger-ui.css`),
  ];
}

/** Describes an answer as the runtimes are compared: status, content type, body. */
export async function describeAnswer(response: Response): Promise<string> {
  return `${response.status} ${response.headers.get("content-type")} ${await response.text()}`;
}

/** Answers the sample requests with a fresh application and describes each answer. */
export async function answerSamples(): Promise<string[]> {
  calendars.clear();
  const http = schedulingApp();
  const out: string[] = [];
  for (const request of sampleRequests("http://runtime.test")) {
    out.push(await describeAnswer(await http.fetch(request)));
  }
  return out;
}
