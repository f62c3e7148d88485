import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { initializedProject, kitIn, runIn } from "../commands/test_project.ts";
import { main } from "../main.ts";

async function printed(args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const log = console.log;
  console.log = (...parts: unknown[]) => void (out += parts.join(" ") + "\n");
  try {
    return { code: await main(args, "/"), out };
  } finally {
    console.log = log;
  }
}

Deno.test("--help of background-job, integration-event and command shows the lines a handler writes to enqueue and publish", async () => {
  const enqueue = /await this\.jobs\.enqueue\(ClearCalendar, \{ calendarId \}/;
  const publish = /await this\.events\.publish\(AppointmentBooked, \{ id: appointment\.id \}\)/;
  const job = await printed(["generate", "background-job", "--help"]);
  assert.match(job.out, /In a command's handler:\n {2}import \{ Handles, type JobQueue \}/);
  assert.match(job.out, /constructor\(private readonly jobs: JobQueue\) \{\}/);
  assert.match(job.out, enqueue);
  const event = await printed(["generate", "integration-event", "--help"]);
  assert.match(event.out, /constructor\(private readonly events: EventPublisher\) \{\}/);
  assert.match(event.out, publish);
  const command = await printed(["generate", "command", "--help"]);
  assert.match(command.out, /\[--enqueues <Job>\] \[--publishes <Event>\]/);
  assert.match(command.out, enqueue);
  assert.match(command.out, publish);
  const json = JSON.parse((await printed(["generate", "--help", "--json"])).out);
  const lines = (kind: string) =>
    json.kinds.find((k: { kind: string }) => k.kind === kind).inAHandler.join("\n");
  assert.match(lines("background-job"), enqueue);
  assert.match(lines("integration-event"), publish);
  assert.match(lines("command"), enqueue);
});

Deno.test({
  name:
    "generate command --enqueues --publishes: the handler gets the JobQueue and EventPublisher and calls them; the dependencies follow; its spec passes",
  sanitizeResources: false,
  async fn() {
    const dir = await initializedProject();
    try {
      const kit = async (...args: string[]) => {
        const run = await kitIn(dir, ...args);
        assert.equal(run.result, 0, `kit ${args.join(" ")}: ${run.out}`);
      };
      await kit("generate", "aggregate", "scheduling", "Appointment");
      await kit(
        "generate",
        "command",
        "scheduling",
        "CancelAppointment",
        "--aggregate",
        "Appointment",
      );
      await kit(
        "generate",
        "background-job",
        "scheduling",
        "ClearLater",
        "--command",
        "CancelAppointment",
      );
      await kit("generate", "integration-event", "scheduling", "AppointmentCancelled");
      await kit(
        "generate",
        "command",
        "scheduling",
        "ConfirmAppointment",
        "--aggregate",
        "Appointment",
        "--enqueues",
        "ClearLater",
        "--publishes",
        "AppointmentCancelled",
      );
      await kit("generate", "command", "scheduling", "Ping", "--publishes", "AppointmentCancelled");
      const s = "src/contexts/scheduling";
      const handler = await readFile(
        join(dir, s, "application/commands/confirm-appointment/confirm-appointment.handler.ts"),
        "utf8",
      );
      assert.match(
        handler,
        /import \{ type EventPublisher, Handles, type JobQueue \} from "@kit\/kernel";/,
      );
      assert.match(
        handler,
        /import \{ ClearLater \} from "\.\.\/\.\.\/background\/clear-later\.job\.ts";/,
      );
      assert.match(
        handler,
        /private readonly appointments: AppointmentRepository,\n\s+private readonly jobs: JobQueue,\n\s+private readonly events: EventPublisher,/,
      );
      // The payloads take the command's inputs by name.
      assert.match(
        handler,
        /await this\.jobs\.enqueue\(ClearLater, \{\s*appointmentId: command\.appointmentId,?\s*\}\);/,
      );
      assert.match(
        handler,
        /await this\.events\.publish\(AppointmentCancelled, \{\s*id: command\.appointmentId,?\s*\}\);/,
      );
      const dependencies = await readFile(join(dir, s, "scheduling.dependencies.ts"), "utf8");
      assert.match(
        dependencies,
        /\[ConfirmAppointmentHandler, \[\s*AppointmentRepository,\s*JobQueue,\s*EventPublisher,?\s*\]\]/,
      );
      assert.match(dependencies, /\[PingHandler, \[\s*EventPublisher,?\s*\]\]/);
      // What was generated compiles and its specs pass, the publishing handlers run (the specs
      // `--no-check`: the type check of `src` before them covers them).
      await runIn(dir, Deno.execPath(), ["check", "--quiet", "src"]);
      await runIn(dir, Deno.execPath(), [
        "test",
        "-A",
        "--quiet",
        "--no-check",
        `${s}/application/commands/confirm-appointment/confirm-appointment.spec.ts`,
        `${s}/application/commands/ping/ping.spec.ts`,
      ]);
      // Refused, in one line, naming the close name: an unknown job or event; and on a query.
      const refusals: [string[], RegExp][] = [
        [
          ["generate", "command", "scheduling", "X", "--enqueues", "ClearLatr"],
          /^kit: Background job 'ClearLatr' does not exist in context 'scheduling': did you mean 'ClearLater'\? Else run 'kit generate background-job scheduling ClearLatr --command <UseCase>' first$/,
        ],
        [
          ["generate", "command", "scheduling", "X", "--publishes", "Nothing"],
          /^kit: Event 'Nothing' does not exist in the published language of 'scheduling': run 'kit generate integration-event scheduling Nothing' first$/,
        ],
        [
          ["generate", "query", "scheduling", "Y", "--publishes", "AppointmentCancelled"],
          /^kit: --publishes applies to commands only/,
        ],
      ];
      for (const [args, message] of refusals) {
        const refused = await kitIn(dir, ...args);
        assert.equal(refused.result, 1);
        assert.match(refused.out, message);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
