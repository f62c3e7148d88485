import { ConceptError } from "../errors/concept_error.ts";

/**
 * An event for an instance that does not exist (yet): code `PROCESS_INSTANCE_NOT_FOUND`. The
 * delivery fails and the outbox delivers the event again later, when its starting event may have
 * arrived (the relay promises no order); declare the event `ifMissing: "ignore"` to drop it.
 */
export class ProcessInstanceNotFoundError extends ConceptError {
  /** Builds the error, naming the process, the event and the key. */
  constructor(process: string, eventType: string, key: string) {
    super(
      "not-found",
      "PROCESS_INSTANCE_NOT_FOUND",
      `Process '${process}' has no instance '${key}' for the event '${eventType}' (yet): it is delivered again later`,
      { process, eventType, key },
    );
    this.name = "ProcessInstanceNotFoundError";
  }
}

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
