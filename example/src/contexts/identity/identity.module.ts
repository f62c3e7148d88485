import { defineModule, type Module } from "@kit/kernel";
import { Database } from "../../platform/database/database.ts";
import { People } from "./application/ports/people.ts";
import { identityDeclarations } from "./identity.declarations.ts";
import { identityDependencies } from "./identity.dependencies.ts";
import { PostgresPeople } from "./infrastructure/postgres-people.ts";

/** The module of the identity context: its declarations, and its people on PostgreSQL. */
export const identityModule: Module = defineModule("identity", {
  declarations: identityDeclarations,
  dependencies: identityDependencies,
  providers: [{ provide: People, provider: { useClass: PostgresPeople, deps: [Database] } }],
});
