import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { initializedProject, quietly } from "../commands/test_project.ts";
import { main } from "../main.ts";
import { cruiserTypeScript, dependencyCruiser } from "./verify_task.ts";

async function run(dir: string, program: string, args: readonly string[]) {
  const output = await new Deno.Command(program, {
    args: [...args],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, text: decode(output.stdout) + decode(output.stderr) };
}

async function put(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

const cruise = [
  "run",
  "-A",
  "--preload",
  cruiserTypeScript,
  dependencyCruiser,
  "--output-type",
  "err-long",
  "--config",
  ".dependency-cruiser.cjs",
  "src",
];

Deno.test({
  name: "dependency-cruiser reports every architecture rule of a generated project by name",
  sanitizeResources: false,
  async fn() {
    const dir = await initializedProject();
    try {
      const generated = await quietly(() =>
        main(["generate", "gateway", "scheduling", "identity"], dir)
      );
      assert.equal(generated.result, 0, generated.stderr.join("\n"));
      const clean = await run(dir, Deno.execPath(), cruise);
      assert.equal(clean.code, 0, clean.text);
      assert.match(clean.text, /no dependency violations found \(\d+ modules/);
      assert.ok(!/\(0 modules/.test(clean.text), "TypeScript sources are cruised");

      const s = "src/contexts/scheduling";
      await put(dir, {
        [`${s}/infrastructure/store.ts`]: "export const store = 1;\n",
        [`${s}/presentation/http/view.ts`]:
          'import { store } from "../../infrastructure/store.ts";\nexport const view = store;\n',
        [`${s}/domain/bad.ts`]: [
          'import { store } from "../infrastructure/store.ts";',
          'import { view } from "../presentation/http/view.ts";',
          'import { grants } from "../../../platform/auth/role.ts";',
          'import type postgres from "postgres";',
          "export type Sql = typeof postgres;",
          "export const bad = [store, view, grants];",
          "",
        ].join("\n"),
        [`${s}/application/reads-identity.ts`]:
          'import { identityModule } from "../../identity/identity.module.ts";\nexport const m = identityModule;\n',
        "src/contexts/notifications/published-language/sent.event.ts": "export const sent = 1;\n",
        "src/contexts/identity/infrastructure/notifications.gateway.ts":
          'import { sent } from "../../notifications/published-language/sent.event.ts";\nexport const g = sent;\n',
        // Allowed: a declared gateway and an event consumer read the upstream's published language.
        "src/contexts/identity/published-language/registered.event.ts":
          "export const registered = 1;\n",
        [`${s}/infrastructure/identity-events.gateway.ts`]:
          'import { registered } from "../../identity/published-language/registered.event.ts";\nexport const e = registered;\n',
        "src/contexts/notifications/application/on-registered.ts":
          'import { registered } from "../../identity/published-language/registered.event.ts";\nexport const r = registered;\n',
      });
      const broken = await run(dir, Deno.execPath(), cruise);
      assert.notEqual(broken.code, 0);
      const violations = broken.text.split("\n").filter((line) => line.includes("error ")).map(
        (line) => line.trim(),
      ).sort();
      assert.deepEqual(violations, [
        `error context-through-published-language: ${s}/application/reads-identity.ts → src/contexts/identity/identity.module.ts`,
        `error domain-imports-no-infrastructure: ${s}/domain/bad.ts → ${s}/infrastructure/store.ts`,
        `error domain-imports-no-platform: ${s}/domain/bad.ts → postgres`,
        `error domain-imports-no-platform: ${s}/domain/bad.ts → src/platform/auth/role.ts`,
        `error domain-imports-no-presentation: ${s}/domain/bad.ts → ${s}/presentation/http/view.ts`,
        "error gateway-of-declared-relationship: src/contexts/identity/infrastructure/notifications.gateway.ts → src/contexts/notifications/published-language/sent.event.ts",
        `error presentation-imports-no-infrastructure: ${s}/presentation/http/view.ts → ${s}/infrastructure/store.ts`,
      ]);
      // Each violation says what to do, not only which rule it broke.
      for (
        const rule of [
          "context-through-published-language",
          "domain-imports-no-infrastructure",
          "domain-imports-no-platform",
          "domain-imports-no-presentation",
          "gateway-of-declared-relationship",
          "presentation-imports-no-infrastructure",
        ]
      ) {
        const at = broken.text.indexOf(`error ${rule}:`);
        assert.match(broken.text.slice(at, at + 800), /Fix: /, rule);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
