import { CliError } from "../cli_error.ts";
import type { Field, Shape } from "./message_shape.ts";

/** Where a route reads an input: the path, the query string (text only) or the JSON body. */
export type InputPlace = "path" | "query" | "body";

/**
 * The bounds of a generated number input: the safe integers' range (`Number.MIN_SAFE_INTEGER` to
 * `Number.MAX_SAFE_INTEGER`, zod 4's `z.number()` refusing `Infinity` and `NaN` besides). A
 * TypeScript `number` does not say whether it is whole, so fractions are accepted: add `.int()`
 * (or narrower bounds) to the schema where the domain wants them, and refuse in the handler
 * too: `kit generate route --update` rewrites the schemas from the message.
 */
const numberBounds = ".gte(Number.MIN_SAFE_INTEGER).lte(Number.MAX_SAFE_INTEGER)";

/** The most items a generated array input takes. */
const arrayBound = ".max(1000)";

/**
 * The zod fields of a route's inputs, bounded as the safe defaults want them: ids of 1 to 100
 * characters, texts of at most 1,000, numbers within the safe integers (fractions accepted, see
 * `numberBounds`), arrays of at most 1,000 items (their texts and numbers bounded alike), a page
 * from 1 and a page size of at most 100; numbers and flags in a query string coerced from their
 * text; a parameter's default kept as the schema's.
 */
export function inputSchema(fields: readonly Field[], place: InputPlace): string {
  return fields.map((field) => `  ${field.name}: ${inputOf(field, place)},`).join("\n");
}

function inputOf(field: Field, place: InputPlace): string {
  const { shape } = field;
  let schema: string;
  switch (shape.kind) {
    case "string":
      schema = /(^id|Id)$/.test(field.name) ? "z.string().min(1).max(100)" : "z.string().max(1000)";
      break;
    case "number": {
      const base = place === "body" ? "z.number()" : "z.coerce.number()";
      schema = field.name === "page"
        ? `${base}.int().min(1).max(100_000)`
        : field.name === "pageSize"
        ? `${base}.int().min(1).max(100)`
        : `${base}${numberBounds}`;
      break;
    }
    case "boolean":
      schema = place === "body"
        ? "z.boolean()"
        : `z.enum(["true", "false"]).transform((value) => value === "true")`;
      break;
    case "enum":
      schema = `z.enum([${shape.values.map((v) => JSON.stringify(v)).join(", ")}])`;
      break;
    default:
      if (place !== "body") {
        throw new CliError(
          `Input '${field.name}' is ${
            shape.kind === "array" ? "an array" : `a ${shape.kind}`
          }, which a ${place} cannot carry: write the route by hand, or give it with --path`,
        );
      }
      schema = nestedInput(shape);
  }
  if (!field.optional) return schema;
  return field.initializer !== undefined && place !== "body"
    ? `${schema}.default(${field.initializer})`
    : `${schema}.optional()`;
}

/** The zod schema of a body input's array or object: every text, number and array bounded. */
function nestedInput(shape: Shape): string {
  switch (shape.kind) {
    case "string":
      return "z.string().max(1000)";
    case "number":
      return `z.number()${numberBounds}`;
    case "array":
      return `z.array(${nestedInput(shape.item)})${arrayBound}`;
    case "object":
      return `z.object({ ${
        shape.fields.map((field) =>
          `${field.name}: ${nestedInput(field.shape)}${field.optional ? ".optional()" : ""}`
        ).join(", ")
      } })`;
    default:
      return answerSchema(shape, false);
  }
}

/**
 * The zod schema of an answer's shape (as its JSON reaches the caller); its arrays read-only
 * (\`readonly T[]\` and \`T[]\` answers both fit), unless \`readonlyArrays\` is false (inputs).
 */
export function answerSchema(shape: Shape, readonlyArrays = true): string {
  switch (shape.kind) {
    case "string":
    case "number":
    case "boolean":
      return `z.${shape.kind}()`;
    case "void":
      return "z.undefined()";
    case "enum":
      return `z.enum([${shape.values.map((v) => JSON.stringify(v)).join(", ")}])`;
    case "array":
      return `z.array(${answerSchema(shape.item, readonlyArrays)})${
        readonlyArrays ? ".readonly()" : ""
      }`;
    case "object":
      return `z.object({ ${
        shape.fields.map((field) =>
          `${field.name}: ${answerSchema(field.shape, readonlyArrays)}${
            field.optional ? ".optional()" : ""
          }`
        ).join(", ")
      } })`;
  }
}
