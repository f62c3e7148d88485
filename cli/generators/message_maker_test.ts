import assert from "node:assert/strict";
import { idField, pageInputs } from "./aggregate_message_templates.ts";
import type { FactoryParameter, Field } from "./message_shape.ts";
import { messageUnderTest } from "./message_maker.ts";

const text: Field["shape"] = { kind: "string" };
const field = (name: string, shape: Field["shape"] = text, optional = false): Field => ({
  name,
  shape,
  optional,
});
const parameter = (name: string, optional = false): FactoryParameter => ({
  name,
  type: "string",
  shape: text,
  optional,
});

/** The body of the part's function: its lines between the signature and the closing brace. */
function bodyOf(part: string): string {
  const lines = part.split("\n");
  return lines.slice(lines.findIndex((line) => line.startsWith("function ")) + 1, -2).join("\n")
    .trim();
}

Deno.test("the part is kit's, named for the update, and makes the message with the actor", () => {
  const part = messageUnderTest("command fleet", "RetireBike", [idField("bikeId")], {
    kind: "on",
    aggregate: "Bike",
  });
  const lines = part.split("\n");
  assert.equal(lines[0], "// kit:begin message under test");
  assert.equal(lines.at(-1), "// kit:end");
  assert.match(part, /`kit generate command fleet RetireBike --update`/);
  assert.match(part, /^function newRetireBike\(actor: Actor, id: string\): RetireBike \{$/m);
  assert.equal(bodyOf(part), "return new RetireBike(actor, id);");
});

Deno.test("a creating command that takes the factory's parameters takes the builder's arguments", () => {
  const factory = [parameter("id"), parameter("model")];
  const part = messageUnderTest(
    "command fleet",
    "RegisterBike",
    [field("bikeId"), field("model")],
    {
      kind: "creates",
      aggregate: "Bike",
      factory,
    },
  );
  assert.equal(bodyOf(part), "return new RegisterBike(actor, ...newBikeArguments(id));");
  // The factory as kit writes it (none read): its id alone.
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "RegisterBike", [field("bikeId")], {
        kind: "creates",
        aggregate: "Bike",
        factory: undefined,
      }),
    ),
    "return new RegisterBike(actor, ...newBikeArguments(id));",
  );
});

Deno.test("a creating command's input the factory does not take gets a value of its type", () => {
  const factory = [parameter("id"), parameter("model")];
  const inputs = [
    field("bikeId"),
    field("model"),
    field("size", { kind: "enum", values: ["small", "large"] }),
    field("wheels", { kind: "number" }),
    field("electric", { kind: "boolean" }),
    field("note", text, true),
  ];
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "RegisterBike", inputs, {
        kind: "creates",
        aggregate: "Bike",
        factory,
      }),
    ),
    'const made = newBikeArguments(id);\n  return new RegisterBike(actor, id, made[1], "small", 1, false);',
  );
  // In another order, the factory's parameters are found by name; none found: no builder call.
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "RegisterBike", [field("model"), field("bikeId")], {
        kind: "creates",
        aggregate: "Bike",
        factory,
      }),
    ),
    "const made = newBikeArguments(id);\n  return new RegisterBike(actor, made[1], id);",
  );
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "RegisterBike", [field("bikeId"), field("color")], {
        kind: "creates",
        aggregate: "Bike",
        factory,
      }),
    ),
    'const made = newBikeArguments(id);\n  return new RegisterBike(actor, made[0], "color-1");',
  );
});

Deno.test("an optional factory parameter is not taken from the builder (it gives the required only); the id is, so the import is used", () => {
  const factory = [parameter("id"), parameter("model", true)];
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "RegisterBike", [field("bikeId"), field("model")], {
        kind: "creates",
        aggregate: "Bike",
        factory,
      }),
    ),
    'const made = newBikeArguments(id);\n  return new RegisterBike(actor, made[0], "model-1");',
  );
});

Deno.test("a page's inputs are the spec's; an optional input between is undefined, none at the end", () => {
  assert.equal(
    bodyOf(messageUnderTest("command fleet", "ListBikes", pageInputs, { kind: "page" })),
    "return new ListBikes(actor, page, pageSize);",
  );
  assert.match(
    messageUnderTest("command fleet", "ListBikes", pageInputs, { kind: "page" }),
    /function newListBikes\(actor: Actor, page\?: number, pageSize\?: number\): ListBikes/,
  );
  const inputs = [field("kind", text, true), ...pageInputs, field("since", text, true)];
  assert.equal(
    bodyOf(messageUnderTest("command fleet", "ListBikes", inputs, { kind: "page" })),
    "return new ListBikes(actor, undefined, page, pageSize);",
  );
});

Deno.test("a message on nothing gets each input a value of its shape", () => {
  const inputs = [
    field("range", {
      kind: "object",
      fields: [field("from", { kind: "number" }), field("to", { kind: "number" })],
    }),
    field("tags", { kind: "array", item: text }),
  ];
  assert.equal(
    bodyOf(messageUnderTest("command fleet", "Report", inputs, { kind: "plain" })),
    "return new Report(actor, { from: 1, to: 1 }, []);",
  );
});

Deno.test("a message on an aggregate finds its id by the aggregate's name, else the first …Id", () => {
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "MoveBike", [field("dockId"), field("bikeId")], {
        kind: "on",
        aggregate: "Bike",
      }),
    ),
    'return new MoveBike(actor, "dockId-1", id);',
  );
  assert.equal(
    bodyOf(
      messageUnderTest("command fleet", "MoveBike", [field("note"), field("vehicleId")], {
        kind: "on",
        aggregate: "Bike",
      }),
    ),
    'return new MoveBike(actor, "note-1", id);',
  );
});
