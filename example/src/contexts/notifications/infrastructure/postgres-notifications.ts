import { requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import { tenantRows } from "../../../platform/database/tenant-rows.ts";
import type {
  NotificationSearch,
  NotificationStore,
} from "../application/ports/notification-store.ts";
import type { Notification, Preferences } from "../domain/notification.ts";

/**
 * Notifications in `notifications.notifications`, `notifications.preferences`,
 * `notifications.reminders`, `notifications.reminders_sent` and `notifications.confirmed_starts`, each row with its practice (tenant): reads see the tenants the work
 * reaches, writes are for the work's tenant (a reaction's is its event's).
 */
export class PostgresNotifications implements NotificationStore {
  constructor(private readonly sql: Database) {}

  async add(n: Notification): Promise<void> {
    await currentSql(this.sql)`
      insert into notifications.notifications
        (id, tenant_id, recipient_id, kind, title, body, related_id, created_at, read_at)
      values (${n.id}, ${requireTenant()}, ${n.recipientId}, ${n.kind}, ${n.title}, ${n.body},
        ${n.relatedId ?? null}, ${n.createdAt}, ${n.readAt ?? null})`;
  }

  async search(s: NotificationSearch): Promise<{ items: Notification[]; total: number }> {
    const db = currentSql(this.sql);
    const kind = s.kind ?? null;
    const unread = s.unread ?? null;
    const where = db`recipient_id = ${s.recipientId} and ${tenantRows(db)}
      and (${kind}::text is null or kind = ${kind})
      and (${unread}::boolean is null or (read_at is null) = ${unread})`;
    const rows = await db`
      select *, count(*) over () as total from notifications.notifications
      where ${where}
      order by created_at desc, id desc
      limit ${s.pageSize} offset ${(s.page - 1) * s.pageSize}`;
    let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
    if (rows.length === 0 && s.page > 1) {
      total = (await db`select count(*)::int as n from notifications.notifications where ${where}`)[
        0
      ]!.n;
    }
    return {
      total,
      items: rows.map((r) => ({
        id: r.id,
        recipientId: r.recipient_id,
        kind: r.kind,
        title: r.title,
        body: r.body,
        ...(r.related_id === null ? {} : { relatedId: r.related_id }),
        createdAt: r.created_at,
        ...(r.read_at === null ? {} : { readAt: r.read_at }),
      })),
    };
  }

  async reminderOf(appointmentId: string): Promise<string | undefined> {
    const db = currentSql(this.sql);
    const [row] = await db`
      select job_id from notifications.reminders
      where appointment_id = ${appointmentId} and ${tenantRows(db)}`;
    return row?.job_id;
  }

  async setReminder(appointmentId: string, jobId: string | undefined): Promise<void> {
    const db = currentSql(this.sql);
    const tenantId = requireTenant();
    if (jobId === undefined) {
      await db`
        delete from notifications.reminders
        where appointment_id = ${appointmentId} and tenant_id = ${tenantId}`;
      return;
    }
    await db`
      insert into notifications.reminders (appointment_id, tenant_id, job_id)
      values (${appointmentId}, ${tenantId}, ${jobId})
      on conflict (tenant_id, appointment_id) do update set job_id = excluded.job_id`;
  }

  async recordReminderSent(appointmentId: string, startsAt: string, at: Date): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      insert into notifications.reminders_sent (tenant_id, appointment_id, starts_at, sent_at)
      values (${requireTenant()}, ${appointmentId}, ${startsAt}, ${at})
      on conflict (tenant_id, appointment_id, starts_at) do nothing
      returning appointment_id`;
    return rows.length === 1;
  }

  async preferences(personId: string): Promise<Preferences | undefined> {
    const db = currentSql(this.sql);
    const [row] = await db`
      select * from notifications.preferences
      where person_id = ${personId} and ${tenantRows(db)} order by tenant_id limit 1`;
    return row === undefined
      ? undefined
      : { email: row.email, sms: row.sms, reminderHoursBefore: row.reminder_hours_before };
  }

  async recordConfirmed(appointmentId: string, startsAt: string): Promise<void> {
    await currentSql(this.sql)`
      insert into notifications.confirmed_starts (tenant_id, appointment_id, starts_at)
      values (${requireTenant()}, ${appointmentId}, ${startsAt})
      on conflict do nothing`;
  }

  async isConfirmed(appointmentId: string, startsAt: string): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      select 1 from notifications.confirmed_starts
      where tenant_id = ${requireTenant()} and appointment_id = ${appointmentId}
        and starts_at = ${startsAt}`;
    return rows.length > 0;
  }

  async savePreferences(personId: string, p: Preferences): Promise<void> {
    await currentSql(this.sql)`
      insert into notifications.preferences
        (tenant_id, person_id, email, sms, reminder_hours_before)
      values (${requireTenant()}, ${personId}, ${p.email}, ${p.sms}, ${p.reminderHoursBefore})
      on conflict (tenant_id, person_id) do update set email = excluded.email,
        sms = excluded.sms, reminder_hours_before = excluded.reminder_hours_before`;
  }
}
