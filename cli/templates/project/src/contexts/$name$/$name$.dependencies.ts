// A fixture for type-checking the templates, not a template: kit derives this manifest (`kit docs`).
import type { DependencyManifest } from "@kit/kernel";

/** The constructor dependencies of the $name$ context's classes. */
export const $camel$Dependencies: DependencyManifest = new Map();
