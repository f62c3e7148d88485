/**
 * The columns and the notification channel of the `background_jobs` table, shared by the SQL
 * job statements.
 *
 * @module
 */

/** The channel an insert or a revival notifies on commit (the payload is the queue). */
export const jobsChannel = "kit_jobs";

/** Every column a store reads back, in table order, `last_error_message` and the lease end left out. */
export const jobColumns: readonly string[] = [
  "id",
  "name",
  "queue",
  "payload",
  "actor",
  "tenant_id",
  "correlation_id",
  "traceparent",
  "subject",
  "idempotency_key",
  "status",
  "attempts",
  "max_attempts",
  "run_at",
  "lease_token",
  "progress_done",
  "progress_total",
  "checkpoint",
  "last_error_code",
  "last_error_at",
  "created_at",
  "finished_at",
  "worker_id",
];

/** Every column of `jobColumns`, as a select list. */
export const allColumns: string = jobColumns.join(", ");
/** The columns of the operators' views: every column but `payload`. */
export const viewColumns: string = jobColumns.filter((column) => column !== "payload").join(
  ", ",
);
/** What `viewJob` reads besides the view columns: the attempt history (migration 4). */
export const historyColumns = "attempt_history, attempt_started_at";
/** Every column of `jobColumns` of the claimed row `j`, as a returning list. */
export const claimedColumns: string = jobColumns.map((column) => `j.${column}`).join(", ");
