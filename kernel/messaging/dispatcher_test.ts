import assert from "node:assert/strict";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  AuthorizedQuery,
  Command,
  CommandBus,
  composeApplication,
  currentScope,
  defineModule,
  definePermissions,
  definePolicy,
  ForbiddenError,
  type HandlerContext,
  Handles,
  isRefusal,
  Requires,
  systemActor,
  userActor,
} from "../mod.ts";

const permissions = definePermissions("scheduling", {
  "appointment.cancel": { description: "Cancel an appointment" },
  "calendar.clear": { description: "Clear a calendar" },
});

@Requires(permissions["appointment.cancel"], {
  resource: (c: CancelAppointment) => ({ type: "appointment", id: c.appointmentId }),
})
class CancelAppointment extends AuthorizedCommand<string> {
  constructor(actor: Actor, readonly appointmentId: string) {
    super(actor);
  }
}

const cancelled: string[] = [];
const committed: string[] = [];

@Handles(CancelAppointment)
class CancelAppointmentHandler {
  handle(command: CancelAppointment, context: HandlerContext): Promise<string> {
    if (command.appointmentId === "boom") throw new Error("handler failed");
    cancelled.push(command.appointmentId);
    context.unitOfWork?.whenCommitted(() => void committed.push(command.appointmentId));
    return Promise.resolve(`cancelled ${command.appointmentId}`);
  }
}

@Requires(permissions["calendar.clear"], {
  resource: (q: CalendarOwner) => ({ type: "calendar", id: q.calendarId }),
})
class CalendarOwner extends AuthorizedQuery<string> {
  constructor(actor: Actor, readonly calendarId: string) {
    super(actor);
  }
}

@Handles(CalendarOwner)
class CalendarOwnerHandler {
  handle(query: CalendarOwner): Promise<string> {
    return Promise.resolve(`owner of ${query.calendarId}`);
  }
}

class Unhandled extends Command<void> {}

function compose() {
  return composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [
          CancelAppointment,
          CancelAppointmentHandler,
          CalendarOwner,
          CalendarOwnerHandler,
        ],
      }),
    ],
    accessPolicy: accessPolicy({
      grants: { receptionist: [permissions["appointment.cancel"]] },
      policies: [
        definePolicy(
          permissions["calendar.clear"],
          ({ actor, resource }) => actor.attributes.calendarId === resource?.id,
        ),
      ],
    }),
  });
}

Deno.test("CommandBus runs the handler of a command whose actor's role grants the permission", async () => {
  const app = compose();
  const result = await app.commands.execute(
    new CancelAppointment(userActor("r1", { roles: ["receptionist"] }), "a1"),
  );
  assert.equal(result, "cancelled a1");
});

Deno.test("CommandBus refuses a command whose actor lacks the permission with ForbiddenError, outside HTTP", async () => {
  const app = compose();
  const before = cancelled.length;
  const error = await app.commands
    .execute(new CancelAppointment(userActor("p1", { roles: ["patient"] }), "a2"))
    .then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ForbiddenError);
  assert.ok(isRefusal(error, "FORBIDDEN"));
  assert.equal(error.kind, "forbidden");
  assert.deepEqual(error.details, {
    permission: "appointment.cancel",
    resource: { type: "appointment", id: "a2" },
  });
  assert.equal(cancelled.length, before, "the handler must not run");
});

Deno.test("QueryBus decides an explicit policy that looks at the resource", async () => {
  const app = compose();
  const owner = userActor("u1", { attributes: { calendarId: "c1" } });
  assert.equal(await app.queries.execute(new CalendarOwner(owner, "c1")), "owner of c1");
  await assert.rejects(() => app.queries.execute(new CalendarOwner(owner, "c2")), ForbiddenError);
});

Deno.test("CommandBus lets the system actor through every permission", async () => {
  const app = compose();
  assert.equal(
    await app.commands.execute(new CancelAppointment(systemActor, "a3")),
    "cancelled a3",
  );
});

Deno.test("CommandBus runs whenCommitted after the handler returns and never when it throws", async () => {
  const app = compose();
  const actor = userActor("r1", { roles: ["receptionist"] });
  await app.commands.execute(new CancelAppointment(actor, "a4"));
  assert.ok(committed.includes("a4"));
  const count = committed.length;
  await assert.rejects(
    () => app.commands.execute(new CancelAppointment(actor, "boom")),
    /handler failed/,
  );
  assert.equal(committed.length, count);
});

Deno.test("CommandBus refuses a message nobody handles, naming it", async () => {
  const app = compose();
  await assert.rejects(
    () => app.commands.execute(new Unhandled(systemActor)),
    { message: "No handler for command 'Unhandled'" },
  );
});

Deno.test("A nested command joins the unit of work of the command that sent it", async () => {
  const units: (string | undefined)[] = [];
  class Inner extends Command<void> {}
  class Outer extends Command<void> {}
  @Handles(Inner)
  class InnerHandler {
    handle(_: Inner, context: HandlerContext): Promise<void> {
      units.push(context.unitOfWork?.id);
      return Promise.resolve();
    }
  }
  @Handles(Outer)
  class OuterHandler {
    constructor(private readonly bus: CommandBus) {}
    async handle(command: Outer, context: HandlerContext): Promise<void> {
      units.push(context.unitOfWork?.id);
      assert.equal(currentScope()?.execution.actor, command.actor);
      await this.bus.execute(new Inner(command.actor));
    }
  }
  const app = composeApplication({
    modules: [
      defineModule("nesting", {
        declarations: [InnerHandler, OuterHandler],
        dependencies: new Map([[OuterHandler, [CommandBus]]]),
      }),
    ],
  });
  await app.commands.execute(new Outer(systemActor));
  assert.equal(units.length, 2);
  assert.ok(units[0] !== undefined);
  assert.equal(units[0], units[1]);
});

Deno.test("The bus waits for a policy that decides asynchronously (a promise or a thenable) and sees the request it decides", async () => {
  const seen: string[][] = [];
  const answers: unknown[] = [Promise.resolve(true), Promise.resolve(false), {
    then: (resolve: (v: boolean) => void) => resolve(true),
  }, { then: (resolve: (v: boolean) => void) => resolve(false) }];
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [CalendarOwner, CalendarOwnerHandler],
      }),
    ],
    accessPolicy: {
      decide(request) {
        seen.push(Object.keys(request));
        return answers.shift() as Promise<boolean>;
      },
    },
  });
  const owner = userActor("u1");
  assert.equal(await app.queries.execute(new CalendarOwner(owner, "c1")), "owner of c1");
  await assert.rejects(() => app.queries.execute(new CalendarOwner(owner, "c2")), ForbiddenError);
  assert.equal(await app.queries.execute(new CalendarOwner(owner, "c3")), "owner of c3");
  await assert.rejects(() => app.queries.execute(new CalendarOwner(owner, "c4")), ForbiddenError);
  assert.deepEqual(seen[0], ["actor", "permission", "message", "execution", "resource"]);
});
