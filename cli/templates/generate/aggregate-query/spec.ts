import assert from "node:assert/strict";
import { type Actor, $conceptErrorImport$$forbiddenImport$$isRefusalImport$runInScope, userActor } from "@kit/kernel";
$preamble$

$messageUnderTest$
$tests$$permissionTest$