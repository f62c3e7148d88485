import assert from "node:assert/strict";
import { partsOf } from "./where_time_goes.ts";

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url },
  children,
});

Deno.test("a profile's samples go to the nearest kit frame's part; the runtime's own to their caller's", () => {
  const parts = partsOf({
    nodes: [
      frame(1, "(root)", "", [2, 6, 7]),
      frame(2, "runPlan", "file:///x/http/pipeline/run_plan.ts", [3, 5]),
      frame(3, "verify", "file:///x/http/auth/hs256_fast_path.ts", [4]),
      frame(4, "decode", "ext:deno_web/08_text_encoding.js"),
      frame(5, "run", "ext:deno_node/async_hooks.ts"),
      frame(6, "(garbage collector)", ""),
      frame(7, "poll", "ext:core/01_core.js"),
    ],
    samples: [2, 3, 4, 4, 5, 6, 6, 7],
  });
  assert.deepEqual(Object.fromEntries(parts), {
    "pipeline: route, request parts, guards, context": 1,
    "JWT: base64url, HMAC-SHA256, JSON.parse, claims": 3,
    "AsyncLocalStorage scopes (the pipeline's, the bus's)": 1,
    "garbage collection": 2,
    "runtime: event loop, promises": 1,
  });
});
