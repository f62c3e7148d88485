import { defineModule, type Module } from "@kit/kernel";
import { Database } from "../../platform/database/database.ts";
import { analyticsDeclarations } from "./analytics.declarations.ts";
import { analyticsDependencies } from "./analytics.dependencies.ts";
import { Counters } from "./application/ports/counters.ts";
import { PostgresCounters } from "./infrastructure/postgres-counters.ts";

/** The module of the analytics context: its reactions, and its counters on PostgreSQL. */
export const analyticsModule: Module = defineModule("analytics", {
  declarations: analyticsDeclarations,
  dependencies: analyticsDependencies,
  providers: [{ provide: Counters, provider: { useClass: PostgresCounters, deps: [Database] } }],
});
