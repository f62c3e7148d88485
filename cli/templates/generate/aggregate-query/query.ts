import { type Actor, $kernelImports$ } from "@kit/kernel";
import type { $aggregate$Snapshot } from "../../../domain/$aggregateKebab$.ts";
$permissionsImport$
$result$
/** $name$: $what$$needs$. */
$requires$export class $name$ extends $base$<$name$Result> {
  constructor(actor: Actor, $inputs$) {
    super(actor);
  }
}
