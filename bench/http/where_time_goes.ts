/**
 * Where the schema route's time goes in process, every token verified: runs `kit_loop.ts` (the
 * tokens of 1,000 callers in turn, the verified-token cache off) under `deno run --cpu-prof`, then
 * sorts the profile's samples into the pipeline's parts and prints a markdown table of each part's
 * share and µs per request: `deno run -A bench/http/where_time_goes.ts [requests]`.
 *
 * A sample is put in the part of the nearest kit (or harness, or npm package) frame on its stack:
 * the runtime's own functions (a `Headers` check, a `TextDecoder`) count for the part that called
 * them. Garbage collection and `AsyncLocalStorage`'s context switches are parts of their own.
 */
import { fileURLToPath } from "node:url";

/** One node of a V8 CPU profile. */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

/** A V8 CPU profile (`.cpuprofile`). */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

/** The part of a frame of its own (garbage collection, idle, context switches), if any. */
function ownPart(frame: ProfileNode["callFrame"]): string | undefined {
  if (frame.functionName === "(garbage collector)") return "garbage collection";
  if (frame.functionName === "(idle)") return "idle";
  if (
    /enterWithPreviousContext|AsyncLocalStorage/.test(frame.functionName) ||
    /async_hooks/.test(frame.url)
  ) {
    return "AsyncLocalStorage scopes (the pipeline's, the bus's)";
  }
  return undefined;
}

/** The part of a frame of kit, of the harness or of an npm package; undefined for the runtime's. */
function codePart(url: string): string | undefined {
  if (/\/bench\/http\/kit_loop\.ts/.test(url)) {
    return "the harness: its Request built, the answer read";
  }
  if (/\/http\/auth\/(hs256_fast_path|hmac_sha256)\.ts/.test(url)) {
    return "JWT: base64url, HMAC-SHA256, JSON.parse, claims";
  }
  if (/\/http\/auth\//.test(url)) return "authenticator: bearer header, caller, actor";
  if (/\/zod\//.test(url)) return "validation (zod)";
  if (/\/http\/(pipeline\/read_body|deadlines\/body_deadline)\.ts/.test(url)) {
    return "body: read, UTF-8, JSON.parse, deadline";
  }
  if (/\/http\/pipeline\/(answer|problem)\.ts/.test(url)) {
    return "answer: JSON.stringify, headers, Response";
  }
  if (/\/kernel\//.test(url)) return "bus: dispatch, permission, unit of work, ids";
  if (/\/http\//.test(url)) return "pipeline: route, request parts, guards, context";
  if (/registry\.npmjs\.org|\/bench\//.test(url)) return "other packages";
  return undefined;
}

/** Samples per part: each sample in the part of the nearest frame that has one. */
export function partsOf(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const parts = new Map<string, number>();
  for (const sample of profile.samples) {
    let id: number | undefined = sample;
    let part: string | undefined;
    while (part === undefined && id !== undefined) {
      const frame = byId.get(id)!.callFrame;
      part = ownPart(frame) ?? codePart(frame.url);
      id = parent.get(id);
    }
    part ??= "runtime: event loop, promises";
    parts.set(part, (parts.get(part) ?? 0) + 1);
  }
  return parts;
}

if (import.meta.main) {
  const requests = Number(Deno.args[0] ?? 100_000);
  const dir = await Deno.makeTempDir({ prefix: "kit-profile-" });
  try {
    const loop = fileURLToPath(new URL("./kit_loop.ts", import.meta.url));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--cpu-prof", `--cpu-prof-dir=${dir}`, loop, String(requests), "1000"],
      stdout: "piped",
    }).output();
    const printed = new TextDecoder().decode(output.stdout);
    const perRequest = Number(/([\d.]+) µs per request/.exec(printed)?.[1]);
    if (!output.success || !(perRequest > 0)) throw new Error(`kit_loop.ts failed: ${printed}`);
    const [file] = [...Deno.readDirSync(dir)].filter((entry) => entry.name.endsWith(".cpuprofile"));
    const parts = partsOf(JSON.parse(Deno.readTextFileSync(`${dir}/${file!.name}`)));
    const idle = parts.get("idle") ?? 0;
    parts.delete("idle");
    const busy = [...parts.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `Schema route in process, tokens of 1,000 callers, cache off: ${perRequest} µs per request (${requests} requests; Deno ${Deno.version.deno})`,
    );
    console.log("| part | share of the samples | µs per request |\n| --- | ---: | ---: |");
    for (const [part, n] of [...parts].sort((a, b) => b[1] - a[1])) {
      console.log(
        `| ${part} | ${(100 * n / busy).toFixed(1)} % | ${(perRequest * n / busy).toFixed(1)} |`,
      );
    }
    console.log(`(${idle} idle samples of ${busy + idle} left out)`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
