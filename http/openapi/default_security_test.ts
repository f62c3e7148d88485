import assert from "node:assert/strict";
import { z } from "zod";
import { composeApplication, defineModule } from "@kit/kernel";
import { Authenticated, Controller, httpPlugin, Public, zodSchema } from "../mod.ts";

Deno.test("httpPlugin({ security }) documents the schemes of closed routes whose guards name none", () => {
  const body = zodSchema(z.object({ ok: z.boolean() }), { io: "output" });
  @Controller({
    method: "GET",
    path: "/closed",
    guards: [Authenticated],
    response: { status: 200, body },
  })
  class Closed {
    handle(): { ok: boolean } {
      return { ok: true };
    }
  }
  @Controller({ method: "GET", path: "/open", guards: [Public], response: { status: 200, body } })
  class Open {
    handle(): { ok: boolean } {
      return { ok: true };
    }
  }
  const document = (security?: readonly string[]) =>
    composeApplication({
      modules: [defineModule("docs", { declarations: [Closed, Open] })],
      plugins: {
        http: httpPlugin({
          ...(security ? { security } : {}),
          securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        }),
      },
    }).http.openapi() as {
      paths: Record<string, { get: { security?: unknown } }>;
      components?: { securitySchemes?: Record<string, unknown> };
    };
  const withBearer = document(["bearer"]);
  assert.deepEqual(withBearer.paths["/closed"]!.get.security, [{ bearer: [] }]);
  assert.deepEqual(withBearer.paths["/open"]!.get.security, []);
  assert.deepEqual(Object.keys(withBearer.components?.securitySchemes ?? {}), ["bearer"]);
  assert.equal(document().paths["/closed"]!.get.security, undefined);
});
