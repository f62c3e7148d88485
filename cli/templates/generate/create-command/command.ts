import { type Actor, $kernelImports$ } from "@kit/kernel";
$typeImports$$permissionsImport$
/**
 * $name$: creates $one$ with the id the caller gives, for the work's tenant$needs$.
 * An id the tenant keeps already is refused (`$exists$`, 409): nothing is overwritten. Ids are
 * each tenant's own: another tenant's of the same id is neither an obstacle nor revealed.
 */
$requires$export class $name$ extends $base$<{ id: string }> {
  constructor(actor: Actor, $inputs$) {
    super(actor);
  }
}
