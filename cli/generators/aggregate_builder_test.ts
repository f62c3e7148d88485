import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { builderNames, planBuilder } from "./aggregate_builder.ts";
import { creatingTemplates } from "./aggregate_message_templates.ts";

Deno.test("an aggregate's builder is named after it", () => {
  assert.deepEqual(builderNames("Bike"), {
    file: "bike.builder.ts",
    arguments: "newBikeArguments",
    instance: "aBike",
  });
  assert.equal(builderNames("OpenAppointment").instance, "anOpenAppointment");
});

Deno.test("a builder written for an aggregate that has none reads its factory as the code has it", async () => {
  const root = await Deno.makeTempDir({ prefix: "kit-builder-" });
  try {
    await mkdir(join(root, "src/contexts/fleet/domain"), { recursive: true });
    await writeFile(
      join(root, "src/contexts/fleet/domain/bike.ts"),
      `export type BikeKind = "road" | "city";
export interface Frame { readonly size: number; readonly colour?: string }
export class Bike {
  private constructor(readonly id: string) {}
  static create(model: string, id: string, kind: BikeKind, frame: Frame, electric: boolean, bought: Date, note = "") {
    return new Bike(id);
  }
}
`,
    );
    const [write] = await planBuilder(root, "fleet", "Bike");
    assert.equal(write?.path, "src/contexts/fleet/domain/bike.builder.ts");
    assert.match(
      write!.contents,
      /return \["model-1", id, "road", \{ size: 1 \}, false, undefined \/\* TODO\(domain\): a valid bought \(Date\) \*\/\];/,
    );
    assert.match(write!.contents, /export function aBike\(id: string\): Bike \{/);
    // Written once: the builder is the user's after that.
    await writeFile(join(root, write!.path), write!.contents);
    assert.deepEqual(await planBuilder(root, "fleet", "Bike"), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a creating command takes the factory's parameters, importing the aggregate's types it names", () => {
  const files = creatingTemplates("fleet", "RegisterBike", "register-bike", undefined, "Bike", {
    parameters: [
      { name: "id", type: "string", shape: { kind: "string" }, optional: false },
      {
        name: "kind",
        type: "BikeKind",
        shape: { kind: "enum", values: ["road"] },
        optional: false,
      },
      { name: "note", type: "string", shape: { kind: "string" }, optional: true },
    ],
    exportedTypes: ["Bike", "BikeKind", "BikeSnapshot"],
  });
  assert.match(
    files.message,
    /import type \{ BikeKind \} from "\.\.\/\.\.\/\.\.\/domain\/bike\.ts";/,
  );
  assert.match(
    files.message,
    /constructor\(actor: Actor, readonly bikeId: string, readonly kind: BikeKind, readonly note\?: string\)/,
  );
  assert.match(files.handler, /Bike\.create\(command\.bikeId, command\.kind, command\.note\)/);
  assert.match(files.spec, /return new RegisterBike\(actor, \.\.\.newBikeArguments\(id\)\);/);
  assert.match(files.spec, /execute\(newRegisterBike\(actor, "x1"\)\)/);
});
