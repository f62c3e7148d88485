import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";

const checkout = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test({
  name: "a generated project's deno lint runs authz/declared and presentation/guard-at-the-edge",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-lint-" });
    try {
      assert.equal(await main(["init", dir, "--context", "billing:core", "--link", checkout]), 0);
      const lint = async () => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["lint"],
          cwd: dir,
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).output();
        return {
          ok: out.success,
          text: new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout),
        };
      };
      assert.equal((await lint()).ok, true, "a fresh project lints clean");
      const http = join(dir, "src/contexts/billing/presentation/http");
      await writeFile(
        join(http, "open.controller.ts"),
        `import { Controller } from "@kit/http";\n\n@Controller({ method: "GET", path: "/open", response: { status: 204 } })\nexport class Open {\n  handle(): void {}\n}\n`,
      );
      await writeFile(
        join(http, "owner.guard.ts"),
        `import type { InvoiceRepository } from "../../application/ports/invoice-repository.ts";\n\nexport type Owner = InvoiceRepository;\n`,
      );
      const result = await lint();
      assert.equal(result.ok, false);
      assert.match(result.text, /authz\/declared/);
      assert.match(result.text, /presentation\/guard-at-the-edge/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
