import type { Email, EmailSender } from "../application/ports/email-sender.ts";

/**
 * The example's stand-in for an email provider: it keeps what it was asked to send, in memory,
 * once per idempotency key (as a provider honouring `Idempotency-Key` does). A real adapter
 * calls the provider's API with the email's key.
 */
export class RecordedEmails implements EmailSender {
  /** Every email asked for, in order (a repeated key included: what the sender did). */
  readonly requested: Email[] = [];

  send(email: Email): Promise<void> {
    this.requested.push(email);
    return Promise.resolve();
  }
}
