/**
 * The kernel's decorators compiled with `experimentalDecorators` (this member's deno.json): the
 * same declarations must compose and behave as under standard decorators.
 */
import assert from "node:assert/strict";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  CommandBus,
  composeApplication,
  defineModule,
  definePermissions,
  ForbiddenError,
  type HandlerContext,
  Handles,
  Requires,
  userActor,
} from "@kit/kernel";

const permissions = definePermissions("scheduling", {
  "appointment.cancel": { description: "Cancel an appointment" },
});

@Requires(permissions["appointment.cancel"], {
  resource: (c: CancelAppointment) => ({ type: "appointment", id: c.appointmentId }),
})
class CancelAppointment extends AuthorizedCommand<string> {
  constructor(actor: Actor, readonly appointmentId: string) {
    super(actor);
  }
}

@Handles(CancelAppointment)
class CancelAppointmentHandler {
  constructor(readonly bus: CommandBus) {}
  handle(command: CancelAppointment, context: HandlerContext): Promise<string> {
    assert.ok(context.unitOfWork !== undefined);
    return Promise.resolve(`cancelled ${command.appointmentId}`);
  }
}

const app = composeApplication({
  modules: [
    defineModule("scheduling", {
      declarations: [CancelAppointment, CancelAppointmentHandler],
      dependencies: new Map([[CancelAppointmentHandler, [CommandBus]]]),
    }),
  ],
  accessPolicy: accessPolicy({ grants: { receptionist: [permissions["appointment.cancel"]] } }),
});

Deno.test("experimentalDecorators: the bus runs a permitted command through its @Handles handler", async () => {
  const result = await app.commands.execute(
    new CancelAppointment(userActor("r", { roles: ["receptionist"] }), "a1"),
  );
  assert.equal(result, "cancelled a1");
});

Deno.test("experimentalDecorators: @Requires refuses an actor without the permission", async () => {
  await assert.rejects(
    () => app.commands.execute(new CancelAppointment(userActor("p"), "a1")),
    ForbiddenError,
  );
});

Deno.test("experimentalDecorators: a decorator applied to a method is refused", () => {
  assert.throws(() => {
    class Target {
      method(): void {}
    }
    const decorate = Handles(CancelAppointment) as unknown as (...args: unknown[]) => void;
    decorate(
      Target.prototype,
      "method",
      Object.getOwnPropertyDescriptor(Target.prototype, "method"),
    );
  }, { message: "@Handles() decorates a class only" });
});
