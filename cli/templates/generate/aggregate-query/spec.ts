import assert from "node:assert/strict";
import { $conceptErrorImport$$forbiddenImport$$isRefusalImport$runInScope, userActor } from "@kit/kernel";
$preamble$$tests$$permissionTest$