import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../main.ts";
import { watchDocs } from "./docs_watch.ts";
import { initializedProject, quietly } from "./test_project.ts";

const controllerPath = "src/contexts/scheduling/presentation/http/book-appointment.controller.ts";
const barrelPath = "src/contexts/scheduling/scheduling.declarations.ts";

/** A controller of BookAppointment, written by hand as a worker does (no generator). */
const controller = `import { Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { BookAppointment } from "../../application/commands/book-appointment/book-appointment.command.ts";
import { AppointmentRoutes } from "./appointment.routes.ts";

/** POST /appointments/:appointmentId/booking: books an appointment. */
@Controller({
  group: AppointmentRoutes,
  method: "POST",
  path: "/:appointmentId/booking",
  summary: "Book an appointment",
  params: zodSchema(z.object({ appointmentId: z.string().min(1) })),
  response: { status: 204, description: "Booked" },
})
export class BookAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: HttpRequest<{ params: { appointmentId: string } }>): Promise<void> {
    return this.commands.execute(new BookAppointment(request.actor, request.params.appointmentId));
  }
}
`;

async function generate(dir: string, ...args: string[]): Promise<void> {
  const run = await quietly(() => main(["generate", ...args], dir));
  assert.equal(run.result, 0, `${args.join(" ")}: ${run.stderr.join(" ")}`);
}

/** A project with the command BookAppointment and the route group AppointmentRoutes, no route. */
async function projectWithoutTheRoute(): Promise<string> {
  const dir = await initializedProject();
  await generate(dir, "aggregate", "scheduling", "Appointment");
  await generate(
    dir,
    ..."command scheduling BookAppointment --aggregate Appointment --permission appointment.book"
      .split(" "),
  );
  await generate(dir, "route-group", "scheduling", "AppointmentRoutes", "--role", "booker");
  return dir;
}

/** Waits until `condition` holds, failing with `explain()` after `seconds`. */
async function eventually(
  condition: () => boolean | Promise<boolean>,
  seconds: number,
  explain: () => string,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s:\n${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test({
  name: "kit docs --watch puts a controller written by hand in its context's barrel, once saved",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await projectWithoutTheRoute();
    const lines: string[] = [];
    const stop = new AbortController();
    const watching = watchDocs(dir, {
      signal: stop.signal,
      report: (line) => void lines.push(line),
    });
    try {
      await eventually(() => lines.some((l) => l.includes("watching")), 30, () => lines.join("\n"));
      assert.deepEqual(lines, ["kit docs --watch: watching src/contexts, kit.config.json"]);
      assert.doesNotMatch(
        await readFile(join(dir, barrelPath), "utf8"),
        /BookAppointmentController/,
      );
      await writeFile(join(dir, controllerPath), controller);
      await eventually(() => lines.length > 1, 30, () => lines.join("\n"));
      assert.equal(
        lines[1],
        "kit docs --watch: wrote src/contexts/scheduling/CONTEXT.md, " +
          `${barrelPath}, src/contexts/scheduling/scheduling.dependencies.ts`,
      );
      assert.match(await readFile(join(dir, barrelPath), "utf8"), /BookAppointmentController,/);
      const check = await quietly(() => main(["docs", "--check"], dir));
      assert.equal(check.result, 0, check.stderr.join("\n"));
    } finally {
      stop.abort();
      await watching;
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "kit docs --check and --watch together are refused in one line, nothing written",
  async fn() {
    const run = await quietly(() => main(["docs", "--check", "--watch"], Deno.cwd()));
    assert.equal(run.result, 1);
    assert.deepEqual(run.stderr, ["kit: Use --check or --watch, not both"]);
  },
});

Deno.test({
  name:
    "a generated project: docs --check fails on a stale CONTEXT.md by its rule; deno task dev serves a controller written by hand",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await projectWithoutTheRoute();

    // verify starts with kit docs --check (verify_task_test.ts).
    await t.step("kit docs --check fails on a stale CONTEXT.md, naming the rule", async () => {
      const path = join(dir, "src/contexts/scheduling/CONTEXT.md");
      const current = await readFile(path, "utf8");
      const stale = current.replace(
        "<!-- kit:begin generated -->\n",
        "<!-- kit:begin generated -->\n- a command merged away\n",
      );
      assert.notEqual(stale, current);
      await writeFile(path, stale);
      const check = await quietly(() => main(["docs", "--check"], dir));
      const said = check.stderr.join("\n");
      assert.equal(check.result, 1, said);
      assert.match(
        said,
        /^error derived-files-current: CONTEXT\.md of scheduling is stale \(run 'kit docs'\)$/m,
      );
      assert.equal(await readFile(path, "utf8"), stale, "the check writes nothing");
      assert.equal((await quietly(() => main(["docs"], dir))).result, 0);
      assert.equal(await readFile(path, "utf8"), current);
    });

    await t.step(
      "deno task dev answers a controller written by hand, with no other step",
      async () => {
        const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const port = (listener.addr as Deno.NetAddr).port;
        listener.close();
        const child = new Deno.Command(Deno.execPath(), {
          args: ["task", "dev"],
          cwd: dir,
          env: { NO_COLOR: "1", DATABASE_URL: "", REDIS_URL: "", PORT: String(port) },
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        let text = "";
        const drain = (stream: ReadableStream<Uint8Array>) =>
          stream.pipeThrough(new TextDecoderStream()).pipeTo(
            new WritableStream({ write: (chunk) => void (text += chunk) }),
          );
        const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
        const book = async (): Promise<number | undefined> => {
          try {
            const response = await fetch(`http://127.0.0.1:${port}/appointments/a-1/booking`, {
              method: "POST",
            });
            await response.body?.cancel();
            return response.status;
          } catch {
            return undefined; // restarting
          }
        };
        try {
          await eventually(
            () => /listening on/.test(text) && /kit docs --watch: watching/.test(text),
            90,
            () => text,
          );
          assert.equal(await book(), 404, "no route before the controller is written");
          await writeFile(join(dir, controllerPath), controller);
          let status: number | undefined;
          await eventually(
            async () => (status = await book()) === 401,
            90,
            () => `last status ${status}\n${text}`,
          );
          assert.match(text, /^kit docs --watch: wrote .*scheduling\.declarations\.ts/m);
        } finally {
          // Ctrl-C: deno run --watch stops on SIGINT (on SIGTERM the server stops, the watcher
          // waits for the next change).
          child.kill("SIGINT");
          await child.status;
          await drained;
        }
      },
    );
  },
});
