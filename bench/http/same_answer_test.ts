import assert from "node:assert/strict";
import { checkSchemaAnswers, schemaAnswer } from "./same_answer.ts";

/** Serves `answer` on a free port for the duration of `check`. */
async function serving(
  answer: (request: Request) => Response,
  check: (url: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    await r.body?.cancel();
    return answer(r);
  });
  try {
    await check(`http://127.0.0.1:${server.addr.port}/calendars/cal-1/clearances?notify=yes`);
  } finally {
    await server.shutdown();
  }
}

const json = (value: unknown, status: number) => Response.json(value, { status });
const refusing = (accepted: (request: Request) => Response) => (request: Request) =>
  request.headers.has("authorization") ? accepted(request) : json({ code: "UNAUTHORIZED" }, 401);

Deno.test("a row answering 202 with the schema body and 401 without a token passes", async () => {
  await serving(
    refusing(() => json(schemaAnswer, 202)),
    (url) => checkSchemaAnswers("a", url, "t"),
  );
});

Deno.test("a row answering another body, status or a refusal is named with what it answered", async () => {
  const cases: [string, (request: Request) => Response, RegExp][] = [
    [
      "other body",
      refusing(() => json({ id: "cal-1:0" }, 202)),
      /other body answered 202 .*cal-1:0/,
    ],
    [
      "extra field",
      refusing(() => json({ ...schemaAnswer, x: 1 }, 202)),
      /extra field answered 202/,
    ],
    ["200", refusing(() => json(schemaAnswer, 200)), /200 answered 200/],
    ["refuses", () => json({ code: "FORBIDDEN" }, 403), /refuses answered 403/],
    ["no auth", () => json(schemaAnswer, 202), /no auth answered 202 without a token, not 401/],
  ];
  for (const [name, answer, message] of cases) {
    await serving(answer, (url) => assert.rejects(checkSchemaAnswers(name, url, "t"), message));
  }
});
