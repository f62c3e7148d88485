import { defineModule, type Module } from "@kit/kernel";
import { identityDeclarations } from "./identity.declarations.ts";
import { identityDependencies } from "./identity.dependencies.ts";

/** The module of the identity context. */
export const identityModule: Module = defineModule("identity", {
  declarations: identityDeclarations,
  dependencies: identityDependencies,
});
