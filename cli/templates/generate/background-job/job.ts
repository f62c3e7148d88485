import type { BackgroundJobExecution, CommandBus } from "@kit/kernel";
$backgroundImport$import { $command$ } from "../commands/$commandKebab$/$commandKebab$.command.ts";

/** The payload of $name$: JSON, dates as ISO text. */
$payloadType$

$doc$
$decorator$export class $name$ {
  static readonly jobName = "$context$.$kebab$";

  constructor(private readonly commands: CommandBus) {}

  async run($payloadParameter$: $name$Payload, execution: BackgroundJobExecution): Promise<void> {
    await this.commands.execute(new $command$($args$));
  }
}
