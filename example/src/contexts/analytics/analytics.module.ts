import { defineModule, type Module } from "@kit/kernel";
import { analyticsDeclarations } from "./analytics.declarations.ts";
import { analyticsDependencies } from "./analytics.dependencies.ts";

/** The module of the analytics context. */
export const analyticsModule: Module = defineModule("analytics", {
  declarations: analyticsDeclarations,
  dependencies: analyticsDependencies,
});
