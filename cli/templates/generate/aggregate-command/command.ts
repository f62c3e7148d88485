import { type Actor, $kernelImports$ } from "@kit/kernel";
$permissionsImport$
/**
 * $name$: what the actor asks of $one$$needs$.
 *
 * Its handler saves the $aggregate$ at the version it loaded: when other work saved it meanwhile,
 * the command is refused with `CONCURRENT_UPDATE` (409) and nothing of it is kept. Declare
 * `@RetryOnConflict()` (from `@kit/kernel`) on this class to have the bus send it again in a
 * new unit of work instead: right when the handler decides anew on what it loads and all its
 * effects go through the unit of work (repositories, events, jobs); wrong when the caller must see
 * what changed before asking again (off by default: the conflict reaches the caller).
 */
$requires$export class $name$ extends $base$<void> {
  constructor(actor: Actor, readonly $id$: string) {
    super(actor);
  }
}
