/**
 * The spec's controller compile-time rules, as type fixtures: each violation carries
 * `@ts-expect-error` above its decorator, so the file compiles only while every violation is
 * reported there. This copy runs under experimentalDecorators (the experimental_decorators member);
 * http/types_test/controller_rules_test.ts is the standard-decorator copy.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import {
  Authenticated,
  classSchema,
  Controller,
  controllerRoute,
  customSchema,
  type HttpRequest,
  type RequestOf,
  type ResponseOf,
  standardSchema,
  zodSchema,
} from "@kit/http";
import {
  cancel,
  inferredTypes,
  noBodyAnswered,
  type otherBody,
  type otherHeaders,
  type otherParams,
  type otherQuery,
} from "../http/types_test/inferred_routes.ts";

const params = zodSchema(z.object({ appointmentId: z.string() }));
const body = zodSchema(z.object({ reason: z.string() }));
const accepted = zodSchema(z.object({ id: z.string() }), { io: "output" });
const valibotBody = standardSchema(v.object({ reason: v.string() }));
const arkBody = standardSchema(type({ reason: "string" }));
const customBody = customSchema<{ reason: string }>({
  validate: (input) => ({ ok: true, value: input as { reason: string } }),
  jsonSchema: { type: "object" },
});

class Reason {
  static readonly schema = zodSchema(z.object({ reason: z.string() }));
  declare readonly reason: string;
}
const classBody = classSchema(Reason);

// Rule 3: handle names only the parts it reads, or takes no parameter.
@Controller({
  method: "POST",
  path: "/a/:appointmentId",
  guards: [Authenticated],
  params,
  body,
  response: { status: 201, body: accepted },
})
export class ReadsOnlyParams {
  handle(request: HttpRequest<{ params: { appointmentId: string } }>): { id: string } {
    return { id: request.params.appointmentId };
  }
}

@Controller({ method: "POST", path: "/b", guards: [Authenticated], response: { status: 204 } })
export class TakesNothing {
  handle(): void {}
}

// Rule 1: reading a part the declaration does not state does not compile.
// @ts-expect-error query is not declared
@Controller({
  method: "POST",
  path: "/c",
  guards: [Authenticated],
  body,
  response: { status: 204 },
})
export class ReadsUndeclaredQuery {
  handle(_request: HttpRequest<{ query: { page: number } }>): void {}
}

// Rule 1: reading a declared part with another type does not compile.
// @ts-expect-error body.reason is a string, not a number
@Controller({
  method: "POST",
  path: "/d",
  guards: [Authenticated],
  body,
  response: { status: 204 },
})
export class ReadsBodyWithWrongType {
  handle(_request: HttpRequest<{ body: { reason: number } }>): void {}
}

// Rule 2: handle must answer the response body's type.
// @ts-expect-error the response body is { id: string }
@Controller({
  method: "POST",
  path: "/e",
  guards: [Authenticated],
  response: { status: 201, body: accepted },
})
export class AnswersWrongBody {
  handle(): { identifier: string } {
    return { identifier: "x" };
  }
}

// The same rules hold with valibot, arktype (Standard Schema) and a custom schema.
@Controller({
  method: "POST",
  path: "/f",
  guards: [Authenticated],
  body: valibotBody,
  response: { status: 204 },
})
export class ValibotBody {
  handle(_request: HttpRequest<{ body: { reason: string } }>): void {}
}

// @ts-expect-error valibot body.reason is a string
@Controller({
  method: "POST",
  path: "/g",
  guards: [Authenticated],
  body: valibotBody,
  response: { status: 204 },
})
export class ValibotBodyWrongType {
  handle(_request: HttpRequest<{ body: { reason: boolean } }>): void {}
}

// @ts-expect-error arktype body.reason is a string
@Controller({
  method: "POST",
  path: "/h",
  guards: [Authenticated],
  body: arkBody,
  response: { status: 204 },
})
export class ArkBodyWrongType {
  handle(_request: HttpRequest<{ body: { reason: number } }>): void {}
}

@Controller({
  method: "POST",
  path: "/j",
  guards: [Authenticated],
  body: classBody,
  response: { status: 204 },
})
export class ClassBody {
  handle(_request: HttpRequest<{ body: Reason }>): void {}
}

// @ts-expect-error the class body's reason is a string
@Controller({
  method: "POST",
  path: "/k",
  guards: [Authenticated],
  body: classBody,
  response: { status: 204 },
})
export class ClassBodyWrongType {
  handle(_request: HttpRequest<{ body: { reason: number } }>): void {}
}

// @ts-expect-error the custom body has no field count
@Controller({
  method: "POST",
  path: "/i",
  guards: [Authenticated],
  body: customBody,
  response: { status: 204 },
})
export class CustomBodyWrongShape {
  handle(_request: HttpRequest<{ body: { count: number } }>): void {}
}

// The route declared once as a constant (`controllerRoute`, inferred_routes.ts): handle names its
// request and answer from it, and the decorator still refuses a handle that disagrees with it.
@Controller(cancel)
export class InferredRoute {
  handle(request: RequestOf<typeof cancel>): ResponseOf<typeof cancel> {
    // @ts-expect-error a part the route does not declare is not on its request
    void request.cookies;
    return { id: `${request.params.appointmentId}:${request.body.reason}:${request.query.notify}` };
  }
}

@Controller(cancel)
export class InferredAsyncRoute {
  async handle(request: RequestOf<typeof cancel>): Promise<ResponseOf<typeof cancel>> {
    return await Promise.resolve({ id: request.headers["x-request-id"] });
  }
}

@Controller(noBodyAnswered)
export class InferredNoBody {
  handle(_request: RequestOf<typeof noBodyAnswered>): ResponseOf<typeof noBodyAnswered> {}
}

// @ts-expect-error handle takes the params of another route
@Controller(cancel)
export class InferredWrongParams {
  handle(_request: RequestOf<typeof otherParams>): ResponseOf<typeof cancel> {
    return { id: "x" };
  }
}

// @ts-expect-error handle takes the query of another route
@Controller(cancel)
export class InferredWrongQuery {
  handle(_request: RequestOf<typeof otherQuery>): ResponseOf<typeof cancel> {
    return { id: "x" };
  }
}

// @ts-expect-error handle takes the headers of another route
@Controller(cancel)
export class InferredWrongHeaders {
  handle(_request: RequestOf<typeof otherHeaders>): ResponseOf<typeof cancel> {
    return { id: "x" };
  }
}

// @ts-expect-error handle takes the body of another route (valibot)
@Controller(cancel)
export class InferredWrongBody {
  handle(_request: RequestOf<typeof otherBody>): ResponseOf<typeof cancel> {
    return { id: "x" };
  }
}

// @ts-expect-error handle answers nothing where the route answers { id: string }
@Controller(cancel)
export class InferredAnswersNothing {
  handle(_request: RequestOf<typeof cancel>): ResponseOf<typeof noBodyAnswered> {}
}

// @ts-expect-error handle answers another body
@Controller(cancel)
export class InferredAnswersWrongBody {
  handle(_request: RequestOf<typeof cancel>): Promise<{ identifier: string }> {
    return Promise.resolve({ identifier: "x" });
  }
}

// @ts-expect-error a route's request is not another route's, even with fewer parts (no query)
@Controller(noBodyAnswered)
export class InferredReadsUndeclared {
  handle(_request: RequestOf<typeof cancel>): void {}
}

Deno.test("experimentalDecorators: Controller compile-time rules: violations are reported on the decorator (this file type-checks)", () => {
  assert.deepEqual(inferredTypes, [true, true, true]);
  assert.equal(typeof ReadsOnlyParams, "function");
  assert.equal(typeof TakesNothing, "function");
});

Deno.test("experimentalDecorators: Controller refuses a route with no group and no guard when its class is defined", () => {
  assert.throws(() => {
    @Controller({ method: "GET", path: "/open", response: { status: 204 } })
    class Unguarded {
      handle(): void {}
    }
    void Unguarded;
  }, /Controller 'Unguarded' has no group and no guard/);
});

Deno.test("experimentalDecorators: Public stands alone", async () => {
  const { Public } = await import("@kit/http");
  assert.throws(
    () =>
      Controller({
        method: "GET",
        path: "/p",
        guards: [Public, Authenticated],
        response: { status: 204 },
      }),
    { message: "Public stands alone: a route with Public has no other guard" },
  );
});

Deno.test("experimentalDecorators: a controller answers over fetch through the pipeline", async () => {
  const { composeApplication, defineModule, userActor } = await import("@kit/kernel");
  const { httpPlugin } = await import("@kit/http");
  const app = composeApplication({
    modules: [defineModule("legacy", { declarations: [ReadsOnlyParams] })],
    plugins: {
      http: httpPlugin({
        authenticators: [{ authenticate: () => ({ actor: userActor("u1") }) }],
      }),
    },
  });
  const response = await app.http.fetch(
    new Request("http://legacy.test/a/x1", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "r" }),
    }),
  );
  assert.equal(response.status, 201);
  assert.deepEqual(await response.json(), { id: "x1" });
});

Deno.test("experimentalDecorators: controllerRoute answers its declaration and refuses a bad one where it is declared", () => {
  assert.equal(cancel.path, "/r/:appointmentId");
  assert.throws(
    () =>
      controllerRoute({
        method: "POST",
        path: "/x",
        guards: [Authenticated],
        response: { status: 404 },
      }),
    { message: "A controller's response status must be a 2xx integer, got 404" },
  );
  assert.throws(
    () => controllerRoute({ method: "FETCH" as "GET", path: "/x", response: { status: 200 } }),
    /Invalid HTTP method "FETCH"/,
  );
});
