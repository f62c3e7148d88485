import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule, userActor } from "@kit/kernel";
import {
  acceptedSchema,
  Authenticated,
  type Authenticator,
  Controller,
  httpPlugin,
  type HttpRequest,
  zodSchema,
} from "../mod.ts";
import { validatingFetch } from "../testing.ts";

const anyone: Authenticator = { authenticate: () => ({ actor: userActor("ann") }) };

@Controller({
  method: "POST",
  path: "/reports/:reportId/runs",
  guards: [Authenticated],
  params: zodSchema(z.object({ reportId: z.string().min(1) })),
  response: {
    status: 202,
    description: "Queued",
    body: acceptedSchema,
    location: (answer: { id: string }, request: HttpRequest<{ params: { reportId: string } }>) =>
      `/reports/${encodeURIComponent(request.params.reportId)}/runs/${
        encodeURIComponent(answer.id)
      }`,
  },
})
class RunReport {
  handle(): { id: string } {
    return { id: "run 1" };
  }
}

function app() {
  return composeApplication({
    modules: [defineModule("reports", { declarations: [RunReport] })],
    plugins: { http: httpPlugin({ authenticators: [anyone] }) },
  }).http;
}

Deno.test("A declared location is the answer's Location header, built from the answer and the request, and stated in the document", async () => {
  const http = app();
  const fetch = validatingFetch(http.fetch, () => http.openapi());
  const response = await fetch(
    new Request("http://api.test/reports/r%2F1/runs", { method: "POST" }),
  );
  assert.equal(response.status, 202);
  assert.equal(response.headers.get("location"), "/reports/r%2F1/runs/run%201");
  assert.deepEqual(await response.json(), { id: "run 1" });
  const paths = http.openapi().paths as Record<
    string,
    { post: { responses: Record<string, { headers?: Record<string, unknown> }> } }
  >;
  assert.deepEqual(paths["/reports/{reportId}/runs"]!.post.responses["202"]!.headers, {
    Location: {
      description: "Where the resource (or, for a 202, its status) is",
      required: true,
      schema: { type: "string", format: "uri-reference" },
    },
  });
});
