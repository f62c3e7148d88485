/**
 * `deno task dev` on a fresh machine: no DATABASE_URL, an empty data directory. It starts the
 * embedded database, migrates and seeds it, serves the API and runs the worker in process.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

Deno.test({
  name: "deno task dev serves the API on the embedded database, with the worker in process",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "kit-dev-db-" });
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const env = { ...Deno.env.toObject(), KIT_DEV_DB: dataDir, PORT: String(port) };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    delete (env as Record<string, string | undefined>).REDIS_URL;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", main],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      let output = "";
      while (!/curl .*'\n/.test(output)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`dev exited: ${output}`);
        output += value;
      }
      const base = `http://127.0.0.1:${port}`;
      assert.match(output, new RegExp(`API docs: +${base}/docs`));
      assert.match(
        output,
        /seeded: +practice-1: calendar cal-1 of dr-who; practice-2: calendar cal-2/,
      );
      const tokenOf = (label: string) => new RegExp(`${label}: (eyJ\\S+)`).exec(output)![1]!;
      const token = tokenOf("practitioner dr-who of practice-1");
      // Each caller belongs to one practice: no x-tenant-id needed.
      const headers = { authorization: `Bearer ${token}` };

      // The banner's booking request, pasted: the patient books the seeded calendar.
      const curl = /curl -X POST (\S+) -H 'authorization: Bearer (\S+)' .* -d '(.+)'/.exec(output)!;
      assert.equal(curl[2], tokenOf("patient pat-1 of practice-1"));
      const booked = await fetch(curl[1]!, {
        method: "POST",
        headers: { authorization: `Bearer ${curl[2]}`, "content-type": "application/json" },
        body: curl[3]!,
      });
      assert.equal(booked.status, 201, await booked.clone().text());
      // The second practice sees its own calendar only.
      const other = { authorization: `Bearer ${tokenOf("practitioner dr-no of practice-2")}` };
      const listed = await (await fetch(`${base}/calendars/`, { headers: other })).json();
      assert.deepEqual(listed.calendars.map((c: { id: string }) => c.id), ["cal-2"]);
      assert.equal((await fetch(`${base}/calendars/cal-1`, { headers: other })).status, 404);
      const me = await fetch(`${base}/people/me`, { headers });
      assert.equal(me.status, 200);
      assert.equal((await me.json()).id, "dr-who");
      // The seeded calendar takes a clearance; the in-process worker (polling) runs it.
      const posted = await fetch(`${base}/calendars/cal-1/clearances`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({
          from: "2030-01-01T00:00:00Z",
          until: "2030-01-02T00:00:00Z",
          reason: "dev check",
        }),
      });
      assert.equal(posted.status, 202);
      const { id } = await posted.json();
      let status = "";
      for (let i = 0; i < 100 && status !== "succeeded"; i++) {
        const answer = await fetch(`${base}/calendars/cal-1/clearances/${id}`, { headers });
        status = (await answer.json()).status;
        if (status !== "succeeded") await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, "succeeded");
      const docs = await fetch(`${base}/docs`);
      assert.match(await docs.text(), /swagger-ui-bundle\.js/);
      const book = /booking page: (\S+)#token=(\S+)/.exec(output)!;
      assert.equal(book[2], tokenOf("patient pat-1 of practice-1"));
      assert.match(await (await fetch(book[1]!)).text(), /Book an appointment/);
      // The jobs dashboard: its page, and the operator's token reads the clearance's queue.
      const dashboard = /jobs dashboard: (\S+)/.exec(output)![1]!;
      assert.equal(dashboard, `${base}/ops/jobs`);
      assert.match(await (await fetch(dashboard)).text(), /Bearer token/);
      const operator = tokenOf("operator ops-1 of practice-1 \\(jobs dashboard\\)");
      const queues = await fetch(`${dashboard}/queues`, {
        headers: { authorization: `Bearer ${operator}` },
      });
      assert.equal(queues.status, 200);
      const scheduling = (await queues.json()).queues.find((q: { queue: string }) =>
        q.queue === "scheduling"
      );
      assert.ok(scheduling.succeeded >= 1, JSON.stringify(scheduling));
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel().catch(() => {});
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
