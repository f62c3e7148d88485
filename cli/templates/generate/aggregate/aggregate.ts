/**
 * What $one$ keeps, as plain JSON data: what its repository stores and restores. The
 * repository keeps the tenant and the version beside it: they are not the domain's business.
 */
export interface $name$Snapshot {
  readonly id: string;
  // TODO(domain): what $one$ keeps (plain JSON: text, numbers, booleans, arrays, objects).
}

/**
 * The $name$ aggregate: it decides, and refuses with a domain error when it must. Its
 * repository loads it with the version it had and saves it expecting that version, so that a
 * decision made on a stale $name$ is refused (`CONCURRENT_UPDATE`) instead of undoing other
 * work.
 */
export class $name$ {
  #snapshot: $name$Snapshot;

  private constructor(snapshot: $name$Snapshot) {
    this.#snapshot = snapshot;
  }

  /** A new $name$. */
  static create(id: string): $name$ {
    if (id.length === 0) throw new TypeError("$sentenceStart$ needs an id");
    return new $name$({ id });
  }

  /** The $name$ its repository kept (nothing is decided again). */
  static restore(snapshot: $name$Snapshot): $name$ {
    return new $name$(snapshot);
  }

  /** Its identity. */
  get id(): string {
    return this.#snapshot.id;
  }

  /** What its repository keeps of it. */
  snapshot(): $name$Snapshot {
    return this.#snapshot;
  }

  // TODO(domain): the decisions of $name$, each refusing with ConceptError.refusal(...) or
  // replacing the snapshot with the next one (this.#snapshot = { ...this.#snapshot, ... }).
}
