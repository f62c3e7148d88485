import { Handles } from "@kit/kernel";
import { $name$$resultImport$ } from "./$kebab$.$kind$.ts";

/** Runs $name$. */
@Handles($name$)
export class $name$Handler {
  handle(_$kind$: $name$): Promise<$result$> {
    // TODO(domain): $todo$.
    $answer$
  }
}
