// kit:begin route imports
import {
  Controller,
  controllerRoute,
  type RequestOf,
  type ResponseOf$zodSchemaImport$,
} from "@kit/http";
import type { $Bus$ } from "@kit/kernel";
$imports$
// kit:end
import { $group$ } from "$groupModule$";

// kit:begin route schemas
$schemas$/** The message a parsed request sends. */
function messageOf(request: RequestOf<typeof route>): $message$ {
  return new $message$(request.actor$arguments$);
}
// kit:end

/**
 * The route, declared once: its handler takes its request and answers its response body
 * (`RequestOf`, `ResponseOf`), as its schemas parse and describe them.
 */
const route = controllerRoute({
  group: $group$,
  method: "$method$",
  path: "$path$",
  permissions: [$message$],
  summary: "$summary$",
  // kit:begin route contract
  $requestSchemas$
  response: { status: $status$, description: "$description$"$answerBody$ },$errors$
  // kit:end
});

/** $method$ $fullPath$: $message$$answered$. */
@Controller(route)
export class $message$Controller {
  constructor(private readonly $bus$: $Bus$) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.$bus$.execute(messageOf(request));
  }
}
