// A fixture for type-checking the templates, not a template: kit derives this barrel (`kit docs`).
import type { AnyClass } from "@kit/kernel";

/** The declared classes of the $name$ context. */
export const $camel$Declarations: readonly AnyClass[] = [];
