// kit:begin route imports
import { Controller, type HttpRequest$zodSchemaImport$ } from "@kit/http";
import type { $Bus$ } from "@kit/kernel";
$imports$
// kit:end
import { $group$ } from "$groupModule$";

// kit:begin route schemas
$schemas$/** What the route reads of a request, as its schemas parse it. */
type Parsed = $requestParts$;

/** What it answers. */
type Answer = $answer$;

/** The message a parsed request sends. */
function messageOf(request: HttpRequest<Parsed>): $message$ {
  return new $message$(request.actor$arguments$);
}
// kit:end

/** $method$ $fullPath$: $message$$answered$. */
@Controller({
  group: $group$,
  method: "$method$",
  path: "$path$",
  permissions: [$message$],
  summary: "$summary$",
  // kit:begin route contract
  $requestSchemas$
  response: { status: $status$, description: "$description$"$answerBody$ },$errors$
  // kit:end
})
export class $message$Controller {
  constructor(private readonly $bus$: $Bus$) {}

  handle(request: HttpRequest<Parsed>): Promise<Answer> {
    return this.$bus$.execute(messageOf(request));
  }
}
