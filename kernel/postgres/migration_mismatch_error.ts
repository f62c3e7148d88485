/** A migration as a ledger records it: its stable name and the SHA-256 of its SQL. */
export interface RecordedMigration {
  /** Its stable name. */
  readonly id: string;
  /** SHA-256 of its SQL, lower-case hex (`unknown` when the ledger has none). */
  readonly checksum: string;
}

/**
 * One number whose applied migration is not the project's: another id or checksum, or a number
 * the project's list lacks (`project` undefined: the code is older than the database).
 */
export interface LedgerMismatch {
  /** The migration's number. */
  readonly version: number;
  /** What the database applied under it. */
  readonly applied: RecordedMigration;
  /** What the project's list has under it, if anything. */
  readonly project?: RecordedMigration;
}

/**
 * A database whose migration ledger differs from the project's list: nothing was applied. A
 * migration that ran must never change (add another); a development database can be brought in
 * line with `onMismatch: "reapply"`.
 */
export class MigrationMismatchError extends Error {
  /** The ledger (`schema.table`, or the table). */
  readonly ledger: string;
  /** Each number that differs, in order. */
  readonly mismatches: readonly LedgerMismatch[];

  /** The error of a ledger and the numbers in it that differ from the project's list. */
  constructor(ledger: string, mismatches: readonly LedgerMismatch[]) {
    const each = mismatches.map((m) =>
      m.project === undefined
        ? `migration ${m.version}: the database applied ${m.applied.id} (sha256 ${m.applied.checksum}), which the project does not have (the code is older than the database)`
        : `migration ${m.version}: the database applied ${m.applied.id} (sha256 ${m.applied.checksum}), the project has ${m.project.id} (sha256 ${m.project.checksum})`
    );
    super(
      `${ledger} does not match the project's migrations, nothing was applied: ${
        each.join("; ")
      }. A migration that ran must never change: add another (a development database can be brought in line with onMismatch: "reapply")`,
    );
    this.name = "MigrationMismatchError";
    this.ledger = ledger;
    this.mismatches = mismatches;
  }
}
