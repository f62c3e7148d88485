import assert from "node:assert/strict";
import { defineModule } from "./module.ts";
import { token } from "./token.ts";

const Greeting = token<string>("Greeting");
const Name = token<string>("Name");

class Derived {
  constructor(readonly greeting: string) {}
}
class ByHand {
  constructor(readonly name: string) {}
}

Deno.test("defineModule takes the derived data, then what its builder declares by hand", () => {
  const module = defineModule("greetings", {
    declarations: [Derived],
    dependencies: new Map([[Derived, [Greeting]]]),
    providers: [{ provide: Greeting, provider: { useValue: "hello" } }],
  }, (builder) => {
    builder.declare(ByHand, { deps: [Name] }).provide(Name, { useValue: "ada" });
  });
  assert.deepEqual(module.declarations, [Derived, ByHand]);
  assert.deepEqual([...module.dependencies], [[Derived, [Greeting]], [ByHand, [Name]]]);
  assert.deepEqual(module.providers.map((p) => p.provide), [Greeting, Name]);
  assert.throws(
    () => defineModule("greetings", { declarations: [Derived] }, (b) => void b.declare(Derived)),
    { message: "Module 'greetings' declares 'Derived' twice" },
  );
  assert.throws(
    () => defineModule("greetings", () => {}, (() => {}) as never),
    { message: "Module 'greetings' takes its options, then a builder function: not two functions" },
  );
});
