import { type Actor, $kernelImports$ } from "@kit/kernel";
$permissionsImport$
$resultType$/** $name$: what the actor asks of the $context$ context$needs$. */
$requires$export class $name$ extends $baseClass$<$result$> {
  constructor(actor: Actor$fields$) {
    super(actor);
  }
}
