import denoJson from "../deno.json" with { type: "json" };

/** The version of the kit packages a generated project imports: this CLI's own. */
export const kitVersion: string = denoJson.version;
