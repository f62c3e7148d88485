import { z } from "zod";
import type { IntegrationEvent } from "@kit/kernel";
import {
  $processImports$,
} from "@kit/kernel/process";
$eventImports$

/** The state of one $name$ instance, validated on every load (stored as JSON). */
export const $name$State = z.object({
  // TODO(domain): what the process remembers between its steps.
  key: z.string(),
  /** The last event or deadline the instance handled. */
  last: z.string(),
});

/** The state of one $name$ instance. */
export type $name$State = z.infer<typeof $name$State>;

/** The deadlines $name$ may request. */
type Deadlines = $deadlineType$;
$day$
/**
 * $processName$: started by $startEvent$$handling$$deadlinesDoc$.
 * An instance per $startKey$ and tenant; each transition runs once per message, in its unit of
 * work (commands sent through the CommandBus join it).
 */
@ProcessManager({
  name: "$processName$",
  state: $name$State,
  startsOn: [
    onEvent($startEvent$, { key: (p) => p.$startKey$, transition: "$startTransition$" }),
  ],$handles$$deadlinesOption$
})
export class $name$ {
  /** The process's name: its instances, its deliveries and its deadline job (`-deadline`). */
  static readonly processName = "$processName$";

  /** Starts an instance$requestsDoc$. */
  $startTransition$(
    event: IntegrationEvent<$startPayload$>,
    $processParameter$: ProcessContext<Deadlines>,
  ): Promise<$name$State> {
$requests$$requestsEnd$    return Promise.resolve({ key: event.payload.$startKey$, last: "$startEvent$" });
  }
$handledTransitions$$deadlineTransitions$}
