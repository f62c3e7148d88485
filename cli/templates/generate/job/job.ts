import type { BackgroundJobExecution$commandBusImport$ } from "@kit/kernel";
import { Scheduled, type ScheduledTick } from "@kit/jobs";
$sendImport$
/** Runs every $every$, once per tick whatever the number of workers. */
@Scheduled({ every: "$every$" })
export class $name$ {
  static readonly jobName = "$context$.$kebab$";
$constructor$
  $async$run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void> {
$send$
  }
}
