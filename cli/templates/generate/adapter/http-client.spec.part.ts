
Deno.test("$adapter$ reads JSON under its base URL and refuses an error answer", async () => {
  const asked: string[] = [];
  const fetch = (input: string | URL | Request): Promise<Response> => {
    asked.push(String(input));
    return Promise.resolve(
      String(input).endsWith("/missing")
        ? new Response("no", { status: 404 })
        : Response.json({ ok: true }),
    );
  };
  class Probe extends $adapter$ {
    get(path: string): Promise<unknown> {
      return this.getJson(path);
    }
  }
  const probe = new Probe("https://example.test/api/", fetch as typeof globalThis.fetch);
  assert.deepEqual(await probe.get("status"), { ok: true });
  await assert.rejects(() => probe.get("missing"), /answered 404/);
  assert.deepEqual(asked, ["https://example.test/api/status", "https://example.test/api/missing"]);
});
