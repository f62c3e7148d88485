import { testApplication } from "../../../platform/platform-test.module.ts";
import { $camel$Module } from "../$context$.module.ts";
