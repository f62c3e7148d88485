import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { initializedProject, kitIn as kit, projectTree, runIn } from "../commands/test_project.ts";
import { routePath } from "./generate_route.ts";
import type { Field } from "./message_shape.ts";

const id = (name: string): Field => ({ name, shape: { kind: "string" }, optional: false });

Deno.test("a route's path: / for a create, a query's ids, a command's ids then what it does", () => {
  assert.equal(routePath("command", "OpenLoan", [], true), "/");
  assert.equal(routePath("query", "ListLoans", [], false), "/");
  assert.equal(routePath("query", "GetLoan", [id("loanId")], false), "/:loanId");
  assert.equal(routePath("command", "ApproveLoan", [id("loanId")], false), "/:loanId/approve");
  assert.equal(
    routePath("command", "MoveLoanOffer", [id("loanOfferId")], false),
    "/:loanOfferId/move",
  );
  assert.equal(routePath("command", "Loan", [id("loanId")], false), "/:loanId/loan");
  assert.equal(routePath("command", "CloseBooks", [], false), "/close-books");
});

/** What a file of the project says. */
function read(dir: string, path: string): Promise<string> {
  return readFile(join(dir, path), "utf8");
}

Deno.test("kit generate route: status, schemas and codes come from the message and its handler", async () => {
  const dir = await initializedProject();
  const http = "src/contexts/scheduling/presentation/http";
  try {
    for (
      const args of [
        "generate aggregate scheduling Loan",
        "generate command scheduling OpenLoan --aggregate Loan --creates --permission loan.open",
        "generate command scheduling ApproveLoan --aggregate Loan",
        "generate query scheduling GetLoan --aggregate Loan --permission loan.read",
        "generate command scheduling Recount",
        "generate route-group scheduling LoanRoutes",
        "generate route scheduling OpenLoan",
        "generate route scheduling ApproveLoan",
        "generate route scheduling GetLoan",
        "generate route scheduling Recount --path /recount",
        "generate query scheduling FindLoan --aggregate Loan --permission loan.find",
        "generate route scheduling FindLoan --function --group LoanRoutes --path /:loanId/found",
      ]
    ) {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 0, `${args}: ${run.out}`);
    }
    const open = await read(dir, `${http}/open-loan.controller.ts`);
    assert.match(open, /method: "POST",\s+path: "\/",/);
    assert.match(open, /status: 201/);
    assert.match(open, /loanId: z\.string\(\)\.min\(1\)\.max\(100\)/);
    // A create may meet an id its tenant keeps already: LOAN_EXISTS (409), as its repository says.
    assert.match(open, /errors: \["FORBIDDEN", schedulingErrors\.LOAN_EXISTS\]/);
    assert.match(open, /path: "\/",\n\s+permissions: \[OpenLoan\],\n\s+summary:/);
    const approve = await read(dir, `${http}/approve-loan.controller.ts`);
    assert.match(approve, /path: "\/:loanId\/approve"/);
    assert.match(approve, /status: 204/);
    assert.match(approve, /errors: \[schedulingErrors\.LOAN_NOT_FOUND\]/);
    assert.doesNotMatch(approve, /FORBIDDEN/, "ApproveLoan declares no permission");
    // It names its message all the same: the document lists no permission for it, and would list
    // the one a later @Requires gives ApproveLoan.
    assert.match(approve, /permissions: \[ApproveLoan\],/);
    const get = await read(dir, `${http}/get-loan.controller.ts`);
    assert.match(get, /method: "GET",\s+path: "\/:loanId"/);
    assert.match(get, /status: 200/);
    assert.match(get, /errors: \["FORBIDDEN", schedulingErrors\.LOAN_NOT_FOUND\]/);
    assert.match(await read(dir, `${http}/recount.controller.ts`), /path: "\/recount"/);
    // --function: a defineRoute with its whole path, registered with the platform.
    const found = await read(dir, `${http}/find-loan.route.ts`);
    assert.match(found, /export const findLoanRoute: FunctionRoute = defineRoute\(/);
    assert.match(found, /path: "\/loans\/:loanId\/found"/);
    assert.match(found, /security: \["bearer"\]/);
    assert.match(found, /errors: \["FORBIDDEN", schedulingErrors\.LOAN_NOT_FOUND\]/);
    assert.match(found, /path: "\/loans\/:loanId\/found",\n\s+permissions: \[FindLoan\],\n/);
    assert.match(
      await read(dir, "src/platform/function-routes.ts"),
      /import \{ findLoanRoute \} from "\.\.\/contexts\/scheduling\/presentation\/http\/find-loan\.route\.ts";[\s\S]*\n\s+findLoanRoute,\n/,
    );
    // The context's derived declarations register every controller: the routes answer.
    const declarations = await read(dir, "src/contexts/scheduling/scheduling.declarations.ts");
    for (const controller of ["OpenLoan", "ApproveLoan", "GetLoan", "Recount"]) {
      assert.match(declarations, new RegExp(`\\b${controller}Controller\\b`));
    }
    // What it wrote passes the project's lint and type check, and its specs pass.
    await runIn(dir, Deno.execPath(), ["lint", http]);
    await runIn(dir, Deno.execPath(), ["check", http]);
    // `deno check` covered every file under http/, the specs and what they import: they run
    // without a second type check.
    await runIn(dir, Deno.execPath(), [
      "test",
      "-A",
      "--no-check",
      ...["open-loan", "approve-loan", "get-loan", "recount"].map((name) =>
        `${http}/${name}.controller.spec.ts`
      ),
      `${http}/find-loan.route.spec.ts`,
    ]);
    // The project's OpenAPI document lists each operation's permission as x-permissions, none
    // for a message that requires none.
    await runIn(dir, Deno.execPath(), ["task", "docs:generate"]);
    const [documentFile] = (await readdir(join(dir, "openapi"))).filter((f) => f.endsWith(".yaml"));
    type Operation = { "x-permissions"?: string[] };
    const paths = (parse(await read(dir, `openapi/${documentFile}`)) as {
      paths: Record<string, Record<string, Operation>>;
    }).paths;
    assert.deepEqual(paths["/loans"]?.post?.["x-permissions"], ["loan.open"]);
    assert.deepEqual(paths["/loans/{loanId}"]?.get?.["x-permissions"], ["loan.read"]);
    assert.deepEqual(paths["/loans/{loanId}/found"]?.get?.["x-permissions"], ["loan.find"]);
    assert.ok(paths["/loans/{loanId}/approve"]?.post, "ApproveLoan's operation is documented");
    assert.equal(paths["/loans/{loanId}/approve"]?.post?.["x-permissions"], undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kit generate route refuses, in one line and writing nothing, what it cannot make", async () => {
  const dir = await initializedProject();
  try {
    for (
      const args of [
        "generate query scheduling FindSlots",
        "generate command scheduling Stamp",
      ]
    ) assert.equal((await kit(dir, ...args.split(" "))).result, 0, args);
    const before = await projectTree(dir);
    const refused = async (args: string, message: RegExp) => {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 1, args);
      assert.equal(run.out.split("\n").length, 1, run.out);
      assert.match(run.out, message, args);
      assert.deepEqual(await projectTree(dir), before, `${args} wrote nothing`);
    };
    await refused(
      "generate route scheduling FindSlots",
      /has no route group: run 'kit generate route-group scheduling <Name>Routes' first/,
    );
    await refused("generate route scheduling Missing", /has no command or query Missing/);
    await refused("generate route nowhere FindSlots", /Unknown context 'nowhere'/);
    assert.equal((await kit(dir, "generate", "route-group", "scheduling", "SlotRoutes")).result, 0);
    assert.equal((await kit(dir, "generate", "route-group", "scheduling", "DeskRoutes")).result, 0);
    const groups = await projectTree(dir);
    const refusedNow = async (args: string, message: RegExp) => {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 1, args);
      assert.match(run.out, message, args);
      assert.deepEqual(await projectTree(dir), groups, `${args} wrote nothing`);
    };
    await refusedNow(
      "generate route scheduling FindSlots",
      /has 2 route groups \(DeskRoutes, SlotRoutes\): name one with --group/,
    );
    await refusedNow("generate route scheduling FindSlots --group Nope", /has no route group Nope/);
    await refusedNow(
      "generate route scheduling FindSlots --group SlotRoutes --path slots",
      /Invalid --path 'slots'/,
    );
    // An input of a type no JSON schema states: named, with its type.
    const stamp = "src/contexts/scheduling/application/commands/stamp/stamp.command.ts";
    await writeFile(
      join(dir, stamp),
      (await read(dir, stamp)).replace(
        "constructor(actor: Actor)",
        "constructor(actor: Actor, readonly at: Date)",
      ),
    );
    const withDate = await projectTree(dir);
    const run = await kit(dir, ..."generate route scheduling Stamp --group SlotRoutes".split(" "));
    assert.equal(run.result, 1);
    assert.match(
      run.out,
      /Stamp's input 'at' is of type Date, which kit generate route cannot state as a JSON schema/,
    );
    assert.deepEqual(await projectTree(dir), withDate);
    assert.equal(
      (await kit(dir, ..."generate route scheduling FindSlots --group SlotRoutes".split(" ")))
        .result,
      0,
    );
    const generated = await projectTree(dir);
    const again = await kit(
      dir,
      ..."generate route scheduling FindSlots --group SlotRoutes".split(" "),
    );
    assert.equal(again.result, 1);
    assert.match(again.out, /The route of FindSlots exists already/);
    assert.match(again.out, /kit generate route scheduling FindSlots --update/);
    assert.deepEqual(await projectTree(dir), generated);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--grant gives the permission to a role, new or held, once; --creates and --grant are checked", async () => {
  const dir = await initializedProject();
  const role = "src/platform/auth/role.ts";
  try {
    for (
      const args of [
        "generate aggregate scheduling Loan",
        "generate command scheduling OpenLoan --aggregate Loan --creates --permission loan.open --grant lender",
        "generate query scheduling ListLoans --aggregate Loan --search --permission loan.read --grant lender",
        "generate query scheduling CountLoans --permission loan.read --grant auditor",
      ]
    ) {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 0, `${args}: ${run.out}`);
    }
    const text = await read(dir, role);
    assert.match(
      text,
      /"auditor": \[schedulingPermissions\["loan\.read"\]\],\n\s+"lender": \[\s*schedulingPermissions\["loan\.open"\],\s*schedulingPermissions\["loan\.read"\],?\s*\],/,
    );
    assert.equal(text.match(/import \{ schedulingPermissions \}/g)?.length, 1);
    const before = await projectTree(dir);
    for (
      const [args, message] of [
        [
          "generate command scheduling Lend --creates",
          /--creates applies to commands with --aggregate/,
        ],
        [
          "generate query scheduling Lent --aggregate Loan --creates",
          /--creates applies to commands/,
        ],
        ["generate command scheduling Lend --grant lender", /--grant <role> needs --permission/],
        ["generate command scheduling Lend --permission loan.lend --grant Lender", /role/],
      ] as const
    ) {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 1, args);
      assert.match(run.out, message, args);
    }
    assert.deepEqual(await projectTree(dir), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kit generate route --function: its whole path without a group, refused where the platform registers no function routes", async () => {
  const dir = await initializedProject();
  const http = "src/contexts/scheduling/presentation/http";
  try {
    assert.equal((await kit(dir, "generate", "query", "scheduling", "FindSlots")).result, 0);
    const before = await projectTree(dir);
    const grouped = await kit(dir, ..."generate route scheduling FindSlots --function".split(" "));
    assert.equal(grouped.result, 1);
    assert.match(grouped.out, /or give the function route its whole path with --path/);
    assert.deepEqual(await projectTree(dir), before);
    const run = await kit(
      dir,
      ..."generate route scheduling FindSlots --function --path /slots/free".split(" "),
    );
    assert.equal(run.result, 0, run.out);
    assert.match(await read(dir, `${http}/find-slots.route.ts`), /path: "\/slots\/free"/);
    await runIn(dir, Deno.execPath(), ["lint", http]);
    await runIn(dir, Deno.execPath(), ["test", "-A", `${http}/find-slots.route.spec.ts`]);
    // A project made before kit init wrote the registry: refused, nothing written.
    const compose = "src/platform/compose-application.ts";
    await writeFile(
      join(dir, compose),
      (await read(dir, compose)).replace(/\n\s*routes: functionRoutes,/, "").replace(
        /import \{ functionRoutes \} from "\.\/function-routes\.ts";\n/,
        "",
      ),
    );
    assert.equal((await kit(dir, "generate", "command", "scheduling", "Stamp")).result, 0);
    const older = await projectTree(dir);
    const refused = await kit(
      dir,
      ..."generate route scheduling Stamp --function --path /stamps".split(" "),
    );
    assert.equal(refused.result, 1);
    assert.match(refused.out, /This project's platform registers no function routes/);
    assert.deepEqual(await projectTree(dir), older);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kit generate route --update: kit's parts from the message, the user's lines kept; refusals write nothing", async () => {
  const dir = await initializedProject();
  const http = "src/contexts/scheduling/presentation/http";
  const query = "src/contexts/scheduling/application/queries/get-loan/get-loan.query.ts";
  try {
    for (
      const args of [
        "generate aggregate scheduling Loan",
        "generate query scheduling GetLoan --aggregate Loan",
        "generate command scheduling Recount",
        "generate route-group scheduling LoanRoutes",
        "generate route scheduling GetLoan",
      ]
    ) {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 0, `${args}: ${run.out}`);
    }
    const before = await projectTree(dir);
    for (
      const [args, refusal] of [
        ["generate route scheduling Recount --update", /Recount has no route to update/],
        ["generate route scheduling GetLoan --update --path /x", /--update keeps .* drop --path/],
      ] as const
    ) {
      const run = await kit(dir, ...args.split(" "));
      assert.equal(run.result, 1, run.out);
      assert.match(run.out, refusal);
    }
    assert.deepEqual(await projectTree(dir), before);

    // Unchanged message: nothing to write.
    assert.equal(
      (await kit(dir, ..."generate route scheduling GetLoan --update".split(" "))).result,
      0,
    );
    assert.deepEqual(await projectTree(dir), before);

    // A new input and a hand edit outside kit's parts.
    const controller = `${http}/get-loan.controller.ts`;
    await writeFile(
      join(dir, query),
      (await read(dir, query)).replace(
        "readonly loanId: string",
        'readonly loanId: string, readonly view: "short" | "full" = "short"',
      ),
    );
    await writeFile(
      join(dir, controller),
      (await read(dir, controller)).replace(
        'summary: "Get loan",',
        'summary: "Get loan",\n  description: "Written by hand.",',
      ),
    );
    const updated = await kit(dir, ..."generate route scheduling GetLoan --update".split(" "));
    assert.equal(updated.result, 0, updated.out);
    const text = await read(dir, controller);
    assert.match(
      text,
      /const querySchema = z\.object\(\{\n\s+view: z\.enum\(\["short", "full"\]\)\.default\("short"\),/,
    );
    assert.match(text, /query: zodSchema\(querySchema\),/);
    assert.match(text, /request\.params\.loanId, request\.query\.view/);
    assert.match(text, /description: "Written by hand\.",/);
    assert.match(text, /path: "\/:loanId",/);

    // A route whose markers are gone is refused, naming what to do.
    const stripped = text.replaceAll(/^\s*\/\/ kit:(begin route schemas|end)\n/gm, "");
    await writeFile(join(dir, controller), stripped);
    const unmarked = await kit(dir, ..."generate route scheduling GetLoan --update".split(" "));
    assert.equal(unmarked.result, 1);
    assert.match(
      unmarked.out,
      /has no '\/\/ kit:begin route schemas'.*delete .*get-loan\.controller\.ts/,
    );
    assert.equal(await read(dir, controller), stripped);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
