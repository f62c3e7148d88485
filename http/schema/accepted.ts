import { z } from "zod";
import type { Schema } from "./schema.ts";
import { zodSchema } from "./zod_schema.ts";

/** The body of a write that hands back an identifier. */
export interface Accepted {
  /** The id of what was written (or of the job enqueued). */
  readonly id: string;
}

/** The schema of {@linkcode Accepted}: `{ id: string }`. */
export const acceptedSchema: Schema<{ id: string }> = zodSchema(z.object({ id: z.string() }), {
  io: "output",
});
