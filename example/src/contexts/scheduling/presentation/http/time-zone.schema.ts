import { z } from "zod";
import { timeZoneNamed } from "../../domain/time-zone.ts";

/** An IANA time zone name ("Europe/Paris", "UTC"), as the runtime knows them; read canonically. */
export function timeZoneSchema(): z.ZodPipe<z.ZodString, z.ZodTransform<string, string>> {
  return z.string().min(1).max(100).refine(
    (name) => timeZoneNamed(name) !== undefined,
    "An IANA time zone name, such as Europe/Paris or UTC",
  ).transform((name) => timeZoneNamed(name)!).describe(
    "An IANA time zone name, such as Europe/Paris or UTC",
  );
}
