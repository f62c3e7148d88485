/**
 * The module builder's form of `@Requires` (`builder.requires`): a permission declared in the
 * module file is the requirement the decorator records, decided by the bus (a caller without it is
 * refused, the policy sees the element the message names), refused for what the decorator refuses,
 * and its compile-time rules hold.
 */
import assert from "node:assert/strict";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  AuthorizedQuery,
  composeApplication,
  defineModule,
  definePermissions,
  definePolicy,
  ForbiddenError,
  Requires,
  userActor,
} from "../mod.ts";
import { requirementOf } from "../internal.ts";
import type { ModuleBuilder, Resource } from "../types.ts";

const permissions = definePermissions("scheduling", {
  "calendar.clear": { description: "Clear a calendar" },
  "calendar.read": { description: "Read a calendar" },
});

class ClearCalendar extends AuthorizedCommand<void> {
  constructor(actor: Actor, readonly calendarId: string) {
    super(actor);
  }
}

class ClearCalendarHandler {
  handle(_command: ClearCalendar): Promise<void> {
    return Promise.resolve();
  }
}

const clearer = userActor("u1", { roles: ["practitioner"] });
const stranger = userActor("u2");

Deno.test("a permission declared with builder.requires is decided by the bus: granted passes, refused otherwise, the policy sees the element", async () => {
  class ReadCalendar extends AuthorizedQuery<number> {
    constructor(actor: Actor, readonly calendarId: string) {
      super(actor);
    }
  }
  class ReadCalendarHandler {
    handle(_query: ReadCalendar): Promise<number> {
      return Promise.resolve(3);
    }
  }
  const seen: (Resource | undefined)[] = [];
  const app = composeApplication({
    modules: [
      defineModule("scheduling", (builder) => {
        builder
          .requires(ClearCalendar, permissions["calendar.clear"], {
            resource: (command) => ({ type: "calendar", id: command.calendarId }),
          })
          .handler(ClearCalendar, ClearCalendarHandler)
          .requires(ReadCalendar, permissions["calendar.read"])
          .handler(ReadCalendar, ReadCalendarHandler);
      }),
    ],
    accessPolicy: accessPolicy({
      grants: { practitioner: [permissions["calendar.clear"], permissions["calendar.read"]] },
      policies: [
        definePolicy(permissions["calendar.clear"], ({ resource, granted }) => {
          seen.push(resource);
          return granted;
        }),
      ],
    }),
  });
  await app.commands.execute(new ClearCalendar(clearer, "c1"));
  assert.deepEqual(seen, [{ type: "calendar", id: "c1" }], "the policy saw the named element");
  await assert.rejects(
    () => app.commands.execute(new ClearCalendar(stranger, "c1")),
    ForbiddenError,
  );
  assert.equal(await app.queries.execute(new ReadCalendar(clearer, "c1")), 3);
  await assert.rejects(() => app.queries.execute(new ReadCalendar(stranger, "c1")), ForbiddenError);
});

Deno.test("builder.requires records what @Requires records", () => {
  const resource = (command: ClearCalendar): Resource => ({
    type: "calendar",
    id: command.calendarId,
  });
  @Requires(permissions["calendar.clear"], { resource })
  class Decorated extends AuthorizedCommand<void> {
    constructor(actor: Actor, readonly calendarId: string) {
      super(actor);
    }
  }
  class Built extends AuthorizedCommand<void> {
    constructor(actor: Actor, readonly calendarId: string) {
      super(actor);
    }
  }
  const module = defineModule(
    "scheduling",
    (b) => void b.requires(Built, permissions["calendar.clear"], { resource }),
  );
  assert.deepEqual(requirementOf(Built), requirementOf(Decorated));
  assert.deepEqual(
    module.declarations,
    [Built],
    "the module declares the message, as the barrel does",
  );
});

Deno.test("builder.requires refuses what @Requires refuses, naming itself, and records nothing", () => {
  class Loose extends AuthorizedCommand<void> {}
  assert.throws(
    () => defineModule("x", (b) => void b.requires(Loose, "calendar.clear" as never)),
    {
      message:
        "builder.requires(Loose) takes a permission from definePermissions(), got calendar.clear",
    },
  );
  assert.throws(
    () =>
      defineModule(
        "x",
        (b) =>
          void b.requires(Loose, permissions["calendar.clear"], { resource: "calendar" as never }),
      ),
    {
      message:
        "builder.requires(Loose) resource must be a function of the message answering { type, id }, got calendar",
    },
  );
  assert.throws(
    () =>
      defineModule("x", (b) => void b.requires("Loose" as never, permissions["calendar.clear"])),
    { message: "builder.requires() takes a command or query class, got Loose" },
  );
  assert.equal(requirementOf(Loose), undefined, "nothing recorded when refused");
  assert.throws(() => Requires("calendar.clear" as never), {
    message: "@Requires() takes a permission from definePermissions(), got calendar.clear",
  });
});

Deno.test("a message's permission is declared once, by either form", () => {
  class Twice extends AuthorizedCommand<void> {}
  assert.throws(
    () =>
      defineModule("x", (b) => {
        b.requires(Twice, permissions["calendar.clear"]);
        b.requires(Twice, permissions["calendar.read"]);
      }),
    {
      message:
        "builder.requires(Twice): 'Twice' declares its permission already (@Requires or builder.requires): a message requires one permission, declared once",
    },
  );
  assert.equal(requirementOf(Twice)?.permission, permissions["calendar.clear"], "the first kept");
  @Requires(permissions["calendar.clear"])
  class Decorated extends AuthorizedCommand<void> {}
  assert.throws(
    () => defineModule("x", (b) => void b.requires(Decorated, permissions["calendar.read"])),
    /builder\.requires\(Decorated\): 'Decorated' declares its permission already/,
  );
  assert.equal(requirementOf(Decorated)?.permission, permissions["calendar.clear"]);
});

Deno.test("composition refuses a builder permission without a handler, and an authorized message without a permission", () => {
  class Orphan extends AuthorizedCommand<void> {}
  assert.throws(
    () =>
      composeApplication({
        modules: [defineModule("x", (b) => void b.requires(Orphan, permissions["calendar.clear"]))],
      }),
    { message: "'Orphan' (module 'x') declares a permission but has no handler" },
  );
  class Unguarded extends AuthorizedCommand<void> {}
  class UnguardedHandler {
    handle(_command: Unguarded): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [defineModule("x", (b) => void b.handler(Unguarded, UnguardedHandler))],
      }),
    /'Unguarded' extends an authorized message but declares no permission/,
  );
});

Deno.test("the compile-time rules of builder.requires: a message class, a permission, a resource of the message", () => {
  const rules = (builder: ModuleBuilder) => {
    builder.requires(ClearCalendar, permissions["calendar.clear"], {
      resource: (command) => ({ type: "calendar", id: command.calendarId }),
    });
    builder.requires(ClearCalendar, permissions["calendar.clear"], {
      // @ts-expect-error the resource reads what the message does not carry
      resource: (command) => ({ type: "calendar", id: command.appointmentId }),
    });
    builder.requires(ClearCalendar, permissions["calendar.clear"], {
      // @ts-expect-error the resource names an element: a type and an id
      resource: (command) => ({ id: command.calendarId }),
    });
    // @ts-expect-error a permission, not its name
    builder.requires(ClearCalendar, "calendar.clear");
    // @ts-expect-error a command or query class, not its handler
    builder.requires(ClearCalendarHandler, permissions["calendar.clear"]);
  };
  // Only compiled: the rules are in the types.
  assert.equal(typeof rules, "function");
});
