import { defineModule, type Module } from "@kit/kernel";
import { $camel$Declarations } from "./$name$.declarations.ts";
import { $camel$Dependencies } from "./$name$.dependencies.ts";

/** The module of the $name$ context. */
export const $camel$Module: Module = defineModule("$name$", {
  declarations: $camel$Declarations,
  dependencies: $camel$Dependencies,
});
