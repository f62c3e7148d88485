import assert from "node:assert/strict";
import { token } from "../mod.ts";
import { Container } from "../internal.ts";

Deno.test("Container builds singletons from their dependencies, once", () => {
  const Name = token<string>("Name");
  class Greeter {
    constructor(readonly name: string) {}
  }
  let built = 0;
  const container = new Container();
  container.register(Name, { useValue: "kit" });
  container.register(Greeter, {
    useFactory: (name: string) => (built++, new Greeter(name)),
    deps: [Name],
  });
  assert.equal(container.resolve(Greeter).name, "kit");
  assert.equal(container.resolve(Greeter), container.resolve(Greeter));
  assert.equal(built, 1);
});

Deno.test("Container names the chain when a dependency is missing", () => {
  const A = token<unknown>("A");
  const B = token<unknown>("B");
  const container = new Container();
  container.register(A, { useFactory: (b: unknown) => b, deps: [B] });
  assert.throws(() => container.resolve(A), { message: "Nobody provides 'B' (needed by A)" });
});

Deno.test("Container refuses a dependency cycle, naming it", () => {
  const A = token<unknown>("A");
  const B = token<unknown>("B");
  const container = new Container();
  container.register(A, { useFactory: (b: unknown) => b, deps: [B] });
  container.register(B, { useFactory: (a: unknown) => a, deps: [A] });
  assert.throws(() => container.resolve(A), { message: "Dependency cycle: A -> B -> A" });
});

Deno.test("Container refuses a provider without useValue, useClass or useFactory", () => {
  const container = new Container();
  assert.throws(
    () => container.register(token("X"), {} as never),
    { message: "The provider of 'X' must have useValue, useClass or useFactory" },
  );
});

Deno.test("Container.checkDependencies reports an undefined dependency (an import cycle)", () => {
  const container = new Container();
  container.register(token("X"), { useFactory: () => 1, deps: [undefined as never] });
  assert.throws(
    () => container.checkDependencies(),
    /A dependency of 'X' \(the platform\) is undefined/,
  );
});
