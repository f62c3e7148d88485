import assert from "node:assert/strict";
import { VerifiedTokens } from "./verified_tokens.ts";

Deno.test("VerifiedTokens keeps at most its capacity, the oldest leaving first", () => {
  const tokens = new VerifiedTokens(2);
  tokens.set("a", { exp: 1 });
  tokens.set("b", { exp: 2 });
  tokens.set("c", { exp: 3 });
  assert.equal(tokens.size, 2);
  assert.equal(tokens.get("a"), undefined);
  assert.deepEqual(tokens.get("c"), { exp: 3 });
});

Deno.test("VerifiedTokens never keeps a token without a numeric exp, nor any with capacity 0", () => {
  const tokens = new VerifiedTokens(2);
  tokens.set("a", { sub: "x" });
  assert.equal(tokens.get("a"), undefined);
  const none = new VerifiedTokens(0);
  none.set("b", { exp: 1 });
  assert.equal(none.size, 0);
});

Deno.test("VerifiedTokens forgets a deleted token", () => {
  const tokens = new VerifiedTokens(2);
  tokens.set("a", { exp: 1 });
  tokens.delete("a");
  assert.equal(tokens.get("a"), undefined);
});
