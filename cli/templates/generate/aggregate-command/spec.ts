import assert from "node:assert/strict";
import {
  type Actor,
  ConceptError,
  $forbiddenImport$isRefusal,
  runInScope,
  userActor,
  type Versioned,
} from "@kit/kernel";
$preamble$

$messageUnderTest$

/** The version of the $aggregate$ as the tenant t1 finds it. */
async function versionOf(id: string): Promise<number | undefined> {
  return (await runInScope({ execution: inT1 }, () => $variable$s.get(id)))?.version;
}

const notFound = (error: unknown) => error instanceof ConceptError && error.kind === "not-found";

Deno.test("$name$ loads the $aggregate$ and saves it at its next version", async () => {
  await seed("x1");
  await application.commands.execute($new$(actor, "x1"));
  assert.equal(await versionOf("x1"), 2);
});

Deno.test("$name$ of another tenant's $aggregate$ is refused as not found, and changes nothing", async () => {
  await seed("x2");
  await assert.rejects(
    () => application.commands.execute($new$(ofAnotherTenant, "x2")),
    notFound,
  );
  assert.equal(await versionOf("x2"), 1);
});

Deno.test("$name$ by a caller who names none of their tenants is refused (TENANT_REQUIRED)", async () => {
  const ofTwo = userActor("someone-of-two", { roles: ["granted"], tenants: ["t1", "t2"] });
  await assert.rejects(
    () => application.commands.execute($new$(ofTwo, "x1")),
    (error) => isRefusal(error, "TENANT_REQUIRED"),
  );
});

Deno.test("$name$ over other work's save is refused (CONCURRENT_UPDATE), the other save stands", async () => {
  /** Other work saves the $aggregate$ just after this command loads it, once. */
  class Overtaken extends InMemory$repository$ {
    #overtaken = false;

    override async get(id: string): Promise<Versioned<$aggregate$> | undefined> {
      const loaded = await super.get(id);
      if (loaded !== undefined && !this.#overtaken) {
        this.#overtaken = true;
        await super.save(loaded.state, loaded.version);
      }
      return loaded;
    }
  }
  const overtaken = new Overtaken();
  const raced = testApplication([$camel$Module], {
    grants: $grants$,
    providers: [{ provide: $repository$, provider: { useValue: overtaken } }],
  });
  await runInScope({ execution: inT1 }, () => overtaken.add($build$("x3")));
  await assert.rejects(
    () => raced.commands.execute($new$(actor, "x3")),
    (error) => isRefusal(error, "CONCURRENT_UPDATE"),
  );
  assert.equal((await runInScope({ execution: inT1 }, () => overtaken.get("x3")))?.version, 2);
});

Deno.test("$name$ of an unknown $aggregate$ is refused as not found", async () => {
  await assert.rejects(
    () => application.commands.execute($new$(actor, "missing")),
    notFound,
  );
});
$permissionTest$