import { pgTest } from "../../test_support/services.ts";
import { outboxGaugesCase } from "../testdata/outbox_gauges_case.ts";
import { migrateKernel, PostgresOutbox, PostgresTransactions } from "../postgres.ts";

pgTest(
  "PostgresOutbox: kit.outbox.backlog and kit.outbox.lag by handler, read once per 10 s",
  async ({ sql }) => {
    await migrateKernel(sql);
    await outboxGaugesCase(
      new PostgresOutbox(sql, { listen: false }),
      new PostgresTransactions(sql),
    );
  },
);
