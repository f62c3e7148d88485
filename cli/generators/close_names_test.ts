import assert from "node:assert/strict";
import { initializedProject, kitIn } from "../commands/test_project.ts";
import { closeNames, didYouMean, editDistance } from "./close_names.ts";

Deno.test("editDistance counts insertions, deletions and substitutions", () => {
  assert.equal(editDistance("Bike", "Bikes"), 1);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("same", "same"), 0);
});

Deno.test("closeNames keeps the names within a third of the typo's length, closest first", () => {
  assert.deepEqual(closeNames("Bikes", ["Station", "Bike", "Rental"]), ["Bike"]);
  assert.deepEqual(closeNames("schduling", ["identity", "scheduling"]), ["scheduling"]);
  assert.deepEqual(closeNames("Rider", ["Bike", "Station"]), []);
  assert.equal(didYouMean("Rider", ["Bike"]), undefined);
  assert.equal(didYouMean("bike", ["Bike", "Hike"]), "did you mean 'Bike' or 'Hike'?");
});

Deno.test("A mistyped aggregate, context, command or event is answered with the close name", async () => {
  const dir = await initializedProject();
  try {
    for (
      const args of [
        ["generate", "aggregate", "scheduling", "Appointment"],
        ["generate", "command", "scheduling", "CancelAppointment"],
        ["generate", "integration-event", "scheduling", "AppointmentBooked"],
        ["generate", "port", "scheduling", "Calendar"],
      ]
    ) {
      const made = await kitIn(dir, ...args);
      assert.equal(made.result, 0, made.out);
    }
    const cases: [string[], RegExp][] = [
      [
        ["generate", "command", "scheduling", "Book", "--aggregate", "Appointments"],
        /^kit: Aggregate 'Appointments' does not exist in context 'scheduling': did you mean 'Appointment'\? Else run 'kit generate aggregate scheduling Appointments' first$/,
      ],
      [
        ["generate", "repository", "scheduling", "Apointment"],
        /did you mean 'Appointment'\?/,
      ],
      [
        ["generate", "command", "schedulng", "Book"],
        /^kit: Unknown context 'schedulng': did you mean 'scheduling'\? The contexts are identity, notifications, scheduling$/,
      ],
      [
        ["generate", "port", "schedulng", "Book"],
        /^kit: Unknown context 'schedulng': did you mean 'scheduling'\?/,
      ],
      [
        ["generate", "background-job", "scheduling", "Later", "--command", "CancelAppointmnt"],
        /^kit: Unknown command 'CancelAppointmnt' in context 'scheduling': did you mean 'CancelAppointment'\?$/,
      ],
      [
        ["generate", "route", "scheduling", "CancelApointment"],
        /did you mean 'CancelAppointment'\? Else run/,
      ],
      [
        ["generate", "integration-handler", "notifications", "AppointmentBookd"],
        /^kit: No context publishes 'AppointmentBookd': did you mean 'AppointmentBooked'\?$/,
      ],
      [
        ["generate", "adapter", "scheduling", "Calendr"],
        /did you mean 'Calendar'\? Else run 'kit generate port scheduling Calendr' first/,
      ],
      // Nothing close: the command to run, as before.
      [
        ["generate", "command", "scheduling", "Book", "--aggregate", "Invoice"],
        /: run 'kit generate aggregate scheduling Invoice' first$/,
      ],
    ];
    for (const [args, message] of cases) {
      const refused = await kitIn(dir, ...args);
      assert.equal(refused.result, 1, args.join(" "));
      assert.match(refused.out, message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
