import assert from "node:assert/strict";
import {
  type Actor,
  AuthorizedCommand,
  Command,
  composeApplication,
  consoleLogger,
  defineModule,
  definePermissions,
  ErrorReporter,
  Handles,
  Logger,
  Requires,
  summarisingLogger,
  systemActor,
  token,
} from "../mod.ts";
import type { CompositionRoot } from "../internal.ts";
import { TestClock } from "../testing.ts";

const permissions = definePermissions("billing", {
  "invoice.void": { description: "Void an invoice" },
});

class Ping extends Command<string> {}

@Handles(Ping)
class PingHandler {
  handle(): Promise<string> {
    return Promise.resolve("pong");
  }
}

@Handles(Ping)
class OtherPingHandler {
  handle(): Promise<string> {
    return Promise.resolve("pong too");
  }
}

Deno.test("composeApplication refuses a module registered twice", () => {
  const module = defineModule("pings", { declarations: [PingHandler] });
  assert.throws(
    () => composeApplication({ modules: [module, module] }),
    { message: "Module 'pings' is registered twice" },
  );
});

Deno.test("composeApplication refuses two handlers for one message, naming both", () => {
  assert.throws(
    () =>
      composeApplication({
        modules: [
          defineModule("a", { declarations: [PingHandler] }),
          defineModule("b", { declarations: [OtherPingHandler] }),
        ],
      }),
    {
      message:
        "'Ping' has two handlers: 'PingHandler' (module 'a') and 'OtherPingHandler' (module 'b')",
    },
  );
});

Deno.test("composeApplication refuses a class declared by two modules", () => {
  assert.throws(
    () =>
      composeApplication({
        modules: [
          defineModule("a", { declarations: [PingHandler] }),
          defineModule("b", { declarations: [PingHandler] }),
        ],
      }),
    { message: "'PingHandler' is declared by module 'a' and module 'b'" },
  );
});

Deno.test("composeApplication refuses a dependency nobody provides, naming who needs it", () => {
  interface Mailer {
    send(to: string): Promise<void>;
  }
  const Mailer = token<Mailer>("Mailer");
  class Notify extends Command<void> {}
  @Handles(Notify)
  class NotifyHandler {
    constructor(readonly mailer: Mailer) {}
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [
          defineModule("notifications", {
            declarations: [NotifyHandler],
            dependencies: new Map([[NotifyHandler, [Mailer]]]),
          }),
        ],
      }),
    { message: "Nobody provides 'Mailer' (needed by 'NotifyHandler' of module 'notifications')" },
  );
});

Deno.test("composeApplication refuses a class whose dependencies are not listed", () => {
  class Notify extends Command<void> {}
  @Handles(Notify)
  class NotifyHandler {
    constructor(readonly mailer: unknown) {}
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => composeApplication({ modules: [defineModule("n", { declarations: [NotifyHandler] })] }),
    /The dependencies of 'NotifyHandler' are not known/,
  );
});

Deno.test("composeApplication refuses an authorized command that declares no permission", () => {
  class VoidInvoice extends AuthorizedCommand<void> {}
  @Handles(VoidInvoice)
  class VoidInvoiceHandler {
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      composeApplication({
        modules: [defineModule("billing", { declarations: [VoidInvoiceHandler] })],
      }),
    /'VoidInvoice' extends an authorized message but declares no permission/,
  );
});

Deno.test("composeApplication refuses a permission-bearing message with no handler", () => {
  @Requires(permissions["invoice.void"])
  class VoidInvoice extends AuthorizedCommand<void> {
    constructor(actor: Actor) {
      super(actor);
    }
  }
  assert.throws(
    () =>
      composeApplication({ modules: [defineModule("billing", { declarations: [VoidInvoice] })] }),
    { message: "'VoidInvoice' (module 'billing') declares a permission but has no handler" },
  );
});

Deno.test("composeApplication refuses a declared class that carries no kit decorator", () => {
  class Plain {}
  assert.throws(
    () => composeApplication({ modules: [defineModule("x", { declarations: [Plain] })] }),
    { message: "Module 'x' declares 'Plain', which carries no kit decorator" },
  );
});

Deno.test("composeApplication refuses a token provided twice, naming both owners", () => {
  const Setting = token<string>("Setting");
  assert.throws(
    () =>
      composeApplication({
        modules: [
          defineModule("a", { providers: [{ provide: Setting, provider: { useValue: "x" } }] }),
        ],
        providers: [{ provide: Setting, provider: { useValue: "y" } }],
      }),
    { message: "'Setting' is provided twice: by the platform and by module 'a'" },
  );
});

Deno.test("A module built with the builder wires a handler and its dependencies", async () => {
  const Greeting = token<string>("Greeting");
  class Greet extends Command<string> {}
  class GreetHandler {
    constructor(private readonly greeting: string) {}
    handle(): Promise<string> {
      return Promise.resolve(this.greeting);
    }
  }
  const module = defineModule("greetings", (builder) => {
    builder.provide(Greeting, { useValue: "hello" });
    builder.handler(Greet, GreetHandler, { deps: [Greeting] });
  });
  const app = composeApplication({ modules: [module] });
  assert.equal(await app.commands.execute(new Greet(systemActor)), "hello");
});

Deno.test("Plugins receive the declarations and their API is exposed on the application", async () => {
  const events: string[] = [];
  const app = composeApplication({
    modules: [defineModule("pings", { declarations: [PingHandler] })],
    plugins: {
      probe: {
        name: "probe",
        setup(root: CompositionRoot) {
          root.onStart(() => void events.push("start"));
          root.onStop(() => void events.push("stop"));
          return { modules: root.modules.map((m) => m.name) };
        },
      },
    },
  });
  assert.deepEqual(app.probe.modules, ["pings"]);
  await app.start();
  await app.stop();
  assert.deepEqual(events, ["start", "stop"]);
});

Deno.test("defineModule refuses a name that is not kebab-case and a class declared twice", () => {
  assert.throws(() => defineModule("Bad Name", {}), /Invalid module name "Bad Name"/);
  assert.throws(
    () => defineModule("a", { declarations: [PingHandler, PingHandler] }),
    { message: "Module 'a' declares 'PingHandler' twice" },
  );
});

Deno.test("Decorators refuse to decorate anything but a class", () => {
  const decorator = Handles(Ping) as unknown as (target: unknown, context?: unknown) => void;
  assert.throws(() => decorator({}, undefined), { message: "@Handles() decorates a class only" });
  assert.throws(
    () => decorator(() => {}, { kind: "method", name: "x" }),
    { message: "@Handles() decorates a class only" },
  );
});

Deno.test("composeApplication() gives its logger to the container and the plugins, reports errors through it, and flushes it on stop", async () => {
  const lines: string[] = [];
  const clock = new TestClock();
  const logger = summarisingLogger(
    consoleLogger({ format: "json", clock, write: (line) => lines.push(line) }),
    { clock },
  );
  let given: unknown;
  const application = composeApplication({
    modules: [],
    clock,
    logger,
    plugins: {
      probe: { name: "probe", setup: (root: CompositionRoot) => void (given = root.logger) },
    },
  });
  assert.equal(application.resolve(Logger), logger);
  assert.equal(given, logger);
  const reporter = application.resolve(ErrorReporter);
  const down = Object.assign(new Error("refused"), { code: "ACQUIRE_TIMEOUT" });
  reporter.report(down, { origin: "http" });
  reporter.report(down, { origin: "http" });
  assert.equal(lines.length, 1);
  await application.start();
  await application.stop();
  assert.deepEqual(lines.map((line) => JSON.parse(line).count), [1, 1]);
  assert.equal(JSON.parse(lines[0]!).code, "DATABASE_UNAVAILABLE");
});
