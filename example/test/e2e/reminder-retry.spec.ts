/**
 * The reminder job is safe to repeat, over HTTP on PostgreSQL: its worker dies after sending
 * (nothing recorded of the attempt, the job left running under its lease); once the lease
 * expired the job runs again, and the patient still gets one reminder and one email.
 */
import assert from "node:assert/strict";
import { EmailSender } from "../../src/contexts/notifications/application/ports/email-sender.ts";
import type { RecordedEmails } from "../../src/contexts/notifications/infrastructure/recorded-emails.ts";
import { callers, e2e, openAllWeekCalendar } from "./e2e.ts";

e2e(
  "a reminder job run again after its lease expired sends one email and one notification",
  async ({ client, application, clock, db }) => {
    await openAllWeekCalendar(client, "cal-1");
    const booked = await client.send("POST", "/appointments/", {
      as: callers.patient,
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: "2026-03-04T10:00:00Z" },
    });
    assert.equal(booked.status, 201, booked.text);
    // Confirmed, so that its reminder is sent (unconfirmed, the request to confirm it replaces it).
    const confirmed = await client.send("POST", `/appointments/${booked.body.id}/confirmation`, {
      as: callers.patient,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    await application.events.relay.deliverDue();
    const emails = application.container.resolve(EmailSender) as RecordedEmails;

    // Due Tuesday 10:00 (24 hours' notice). The worker sends, then dies: nothing it does after
    // the send reaches the store (no success, no failure, no heartbeat), the time it would have
    // taken runs past the lease, and it claims nothing more. The job stays running.
    clock.set(new Date("2026-03-03T10:00:00Z"));
    // deno-lint-ignore no-explicit-any
    const store = application.backgroundJobs.store as any;
    const deadTokens = new Set<string>();
    let dying = true;
    const claim = store.jobClaim.bind(store);
    store.jobClaim = async (params: unknown) => {
      if (dying && deadTokens.size > 0) return [];
      const claimed = await claim(params);
      if (dying) { for (const job of claimed) deadTokens.add(job.leaseToken); }
      return claimed;
    };
    const ofDead = (params: { leaseToken?: string; jobs?: { leaseToken: string }[] }) =>
      [params.leaseToken, ...(params.jobs ?? []).map((j) => j.leaseToken)]
        .some((token) => token !== undefined && deadTokens.has(token));
    for (const name of ["jobComplete", "jobCompleteMany", "jobFail", "jobReport", "jobRelease"]) {
      const real = store[name].bind(store);
      store[name] = (params: { leaseToken?: string; jobs?: { leaseToken: string }[] }) => {
        if (!ofDead(params)) return real(params);
        if (dying) clock.advance(5 * 60_000);
        return Promise.reject(new Error("the worker was killed (kill -9)"));
      };
    }
    await application.backgroundJobs.runDue().catch(() => {});
    dying = false;
    assert.equal(emails.requested.length, 1, "the first run sent");
    const [running] = await db.sql`
      select status, attempts from notifications.background_jobs where name = 'notifications.send-reminder'`;
    assert.deepEqual([running?.status, running?.attempts], ["running", 1]);

    // Its lease ended: another worker claims it and runs it again, to the end.
    const [leased] = await db.sql`
      select lease_expires_at from notifications.background_jobs where name = 'notifications.send-reminder'`;
    assert.ok((leased!.lease_expires_at as Date) <= clock.now(), "the lease ended");
    // (The appointment-confirmation process's reminder falls due at the same time: it runs too.)
    assert.ok(await application.backgroundJobs.runDue() >= 1, "the job ran again");
    const [done] = await db.sql`
      select status, attempts from notifications.background_jobs where name = 'notifications.send-reminder'`;
    assert.deepEqual([done?.status, done?.attempts], ["succeeded", 2]);

    assert.equal(emails.requested.length, 1, "one email however many runs");
    assert.equal(emails.requested[0]?.recipientId, "pat-1");
    const told = await client.send("GET", "/notifications?kind=appointment-reminder", {
      as: callers.patient,
    });
    assert.equal(told.body.total, 1, "one reminder in the app");
  },
);
