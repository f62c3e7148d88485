import {
  composePlatform,
  type PlatformOptions,
} from "../../src/platform/compose-application.ts";
import { $camel$Module } from "../../src/contexts/$context$/$context$.module.ts";

/**
 * The $context$ service: the $context$ context alone, deployable on its own, on the platform
 * (its providers and repositories, its access policy with the role grants and the explicit
 * policies, events, jobs and the HTTP pipeline).
 */
export function composeService(options: Omit<PlatformOptions, "modules"> = {}) {
  return composePlatform({ ...options, modules: [$camel$Module] });
}
