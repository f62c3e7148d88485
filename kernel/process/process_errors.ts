import { ConceptError } from "../errors/concept_error.ts";

/**
 * A state that does not fit the process's state schema: code `PROCESS_STATE_INVALID`. Loaded: the
 * instance was saved by a deploy whose state differed (migrate the stored states, or accept both
 * shapes in the schema). Answered by a transition: a bug of the transition.
 */
export class ProcessStateInvalidError extends ConceptError {
  /** Builds the error, naming the process, the key and the issues. */
  constructor(process: string, key: string, where: "loaded" | "answered", issues: string) {
    super(
      "refusal",
      "PROCESS_STATE_INVALID",
      `The state ${where} for instance '${key}' of process '${process}' does not fit its schema: ${issues}`,
      { process, key, where },
    );
    this.name = "ProcessStateInvalidError";
  }
}
