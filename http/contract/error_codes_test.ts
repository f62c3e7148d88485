import assert from "node:assert/strict";
import { z } from "zod";
import {
  type Actor,
  Command,
  CommandBus,
  composeApplication,
  ConceptError,
  defineErrorCodes,
  defineModule,
  type ErrorReporter,
  Handles,
  userActor,
} from "@kit/kernel";
import {
  Authenticated,
  type Authenticator,
  Controller,
  defineRoute,
  httpPlugin,
  type HttpPluginOptions,
  type HttpRequest,
  RouteGroup,
  UndeclaredErrorCode,
  zodSchema,
} from "../mod.ts";

const libraryErrors = defineErrorCodes("library", {
  BOOK_ALREADY_LENT: { kind: "conflict", description: "The book is lent to someone else" },
  BOOK_UNKNOWN: { status: 404, description: "No such book" },
  LOAN_LIMIT: { status: 400, kind: "refusal", description: "The reader holds too many books" },
});

const reader: Authenticator = {
  authenticate: (request) =>
    request.headers.has("x-reader")
      ? { actor: userActor(request.headers.get("x-reader")!) }
      : undefined,
};

class LendBook extends Command<void> {
  constructor(actor: Actor, readonly book: string) {
    super(actor);
  }
}

@Handles(LendBook)
class LendBookHandler {
  handle(command: LendBook): Promise<void> {
    if (command.book === "lent") throw libraryErrors.BOOK_ALREADY_LENT.error("Lent already");
    if (command.book === "plain") throw ConceptError.conflict("BOOK_ALREADY_LENT", "Lent");
    if (command.book === "unknown") throw libraryErrors.BOOK_UNKNOWN.error("No such book");
    if (command.book === "greedy") throw libraryErrors.LOAN_LIMIT.error("Too many books");
    if (command.book === "other") throw ConceptError.conflict("SHELF_LOCKED", "Locked");
    return Promise.resolve();
  }
}

@RouteGroup({ prefix: "/books", guards: [Authenticated], errors: [libraryErrors.BOOK_UNKNOWN] })
class BookRoutes {}

@Controller({
  group: BookRoutes,
  method: "POST",
  path: "/:book/loan",
  params: zodSchema(z.object({ book: z.string() })),
  response: { status: 204 },
  errors: [libraryErrors.BOOK_ALREADY_LENT, libraryErrors.LOAN_LIMIT],
})
class LendBookController {
  constructor(private readonly commands: CommandBus) {}
  handle(request: HttpRequest<{ params: { book: string } }>): Promise<void> {
    return this.commands.execute(new LendBook(request.actor, request.params.book));
  }
}

function library(options: HttpPluginOptions = {}, reported: unknown[] = []) {
  const errorReporter: ErrorReporter = { report: (error) => void reported.push(error) };
  return composeApplication({
    modules: [defineModule("library", {
      declarations: [LendBookHandler, BookRoutes, LendBookController],
      dependencies: new Map([[LendBookController, [CommandBus]]]) as never,
    })],
    errorReporter,
    plugins: { http: httpPlugin({ authenticators: [reader], ...options }) },
  }).http;
}

function lend(book: string): Request {
  return new Request(`http://api.test/books/${book}/loan`, {
    method: "POST",
    headers: { "x-reader": "ann" },
  });
}

type Operation = {
  responses: Record<string, {
    content?: Record<
      string,
      { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } }
    >;
  }>;
};

function documentedCodes(http: ReturnType<typeof library>, path: string): Record<string, string[]> {
  const operation = (http.openapi().paths as Record<string, Record<string, Operation>>)[path]!
    .post!;
  const out: Record<string, string[]> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const schema = response.content?.["application/problem+json"]?.schema;
    if (schema) out[status] = schema.allOf[1].properties.code.enum;
  }
  return out;
}

Deno.test("A declared code answers its declared status, and the document lists it under that status", async () => {
  const http = library();
  const documented = documentedCodes(http, "/books/{book}/loan");
  for (
    const [book, status, code] of [
      ["lent", 409, "BOOK_ALREADY_LENT"],
      ["plain", 409, "BOOK_ALREADY_LENT"],
      ["unknown", 404, "BOOK_UNKNOWN"],
      ["greedy", 400, "LOAN_LIMIT"],
    ] as const
  ) {
    const response = await http.fetch(lend(book));
    assert.equal(response.status, status, book);
    assert.equal((await response.json()).code, code);
    assert.ok(documented[String(status)]?.includes(code), `${code} documented under ${status}`);
  }
  assert.equal(
    Object.entries(documented).filter(([, codes]) => codes.includes("BOOK_ALREADY_LENT")).length,
    1,
    "a code is documented under one status",
  );
});

Deno.test("statusByCode overrides a declared status in the answer and in the document alike", async () => {
  const http = library({ statusByCode: { BOOK_ALREADY_LENT: 423 } });
  const response = await http.fetch(lend("lent"));
  assert.equal(response.status, 423);
  await response.body?.cancel();
  const documented = documentedCodes(http, "/books/{book}/loan");
  assert.deepEqual(documented["423"], ["BOOK_ALREADY_LENT"]);
  assert.ok(!documented["409"]?.includes("BOOK_ALREADY_LENT"));
});

Deno.test("A route declaring a code of unknown status is refused when the application composes", () => {
  @Controller({
    method: "GET",
    path: "/shelves",
    guards: [Authenticated],
    response: { status: 204 },
    errors: ["SHELF_LOCKED"],
  })
  class ListShelves {
    handle(): void {}
  }
  const compose = (options: HttpPluginOptions) =>
    composeApplication({
      modules: [defineModule("shelves", { declarations: [ListShelves] })],
      plugins: { http: httpPlugin(options) },
    });
  assert.throws(
    () => compose({}),
    /Controller 'ListShelves' declares code 'SHELF_LOCKED', whose status is not known/,
  );
  assert.doesNotThrow(() => compose({ statusByCode: { SHELF_LOCKED: 423 } }));
  const route = defineRoute({
    method: "GET",
    path: "/racks",
    operationId: "listRacks",
    responses: { 204: { description: "None" } },
    security: [],
    errors: ["RACK_GONE"],
  }, () => ({ status: 204 }));
  assert.throws(
    () =>
      composeApplication({
        modules: [],
        plugins: { http: httpPlugin({ routes: [route] }) },
      }),
    /Route 'listRacks' declares code 'RACK_GONE', whose status is not known/,
  );
});

Deno.test("One code declared with two statuses by two contexts is refused when the application composes", () => {
  const archiveErrors = defineErrorCodes("archive", {
    BOOK_UNKNOWN: { status: 410, description: "The book was archived" },
  });
  const route = defineRoute({
    method: "GET",
    path: "/archive/:book",
    operationId: "readArchive",
    responses: { 204: { description: "There" } },
    security: ["bearer"],
    errors: [archiveErrors.BOOK_UNKNOWN],
  }, () => ({ status: 204 }));
  assert.throws(
    () => library({ routes: [route] }),
    /Code 'BOOK_UNKNOWN' answers 404 on POST \/books\/:book\/loan \(context 'library'\) and 410 on GET \/archive\/:book \(context 'archive'\): a code has one status/,
  );
});

Deno.test("A code the route does not declare: undeclaredErrors 'refuse' answers 500, 'report' its status; both report it", async () => {
  const reported: unknown[] = [];
  const strict = library({ undeclaredErrors: "refuse" }, reported);
  const refused = await strict.fetch(lend("other"));
  assert.equal(refused.status, 500);
  assert.equal((await refused.json()).code, "INTERNAL_ERROR");
  assert.equal(reported.length, 1);
  assert.match(
    String(reported[0]),
    /POST \/books\/:book\/loan answered code 'SHELF_LOCKED', which it does not declare/,
  );
  assert.ok(reported[0] instanceof UndeclaredErrorCode);
  assert.equal(reported[0].name, "UndeclaredErrorCode");

  const lenient = library({}, reported);
  const answered = await lenient.fetch(lend("other"));
  assert.equal(answered.status, 409);
  assert.equal((await answered.json()).code, "SHELF_LOCKED");
  assert.equal(reported.length, 2);
  assert.match(String(reported[1]), /answered code 'SHELF_LOCKED', which it does not declare/);

  const declared = await strict.fetch(lend("lent"));
  assert.equal(declared.status, 409);
  await declared.body?.cancel();
  assert.equal(reported.length, 2, "a declared code is not reported");
});
