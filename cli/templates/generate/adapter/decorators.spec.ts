import assert from "node:assert/strict";
import { retrying } from "./$kebab$.decorators.ts";

Deno.test("retrying tries a failing call again, then gives up with the last error", async () => {
  let calls = 0;
  const flaky = retrying({
    read(): Promise<string> {
      calls++;
      return calls < 3 ? Promise.reject(new Error(`fail ${calls}`)) : Promise.resolve("done");
    },
  });
  assert.equal(await flaky.read(), "done");
  assert.equal(calls, 3);
  const broken = retrying({ read: (): Promise<string> => Promise.reject(new Error("down")) }, 2);
  await assert.rejects(() => broken.read(), /down/);
});
