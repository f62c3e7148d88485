import { type Token, token } from "@kit/kernel";

/** An email to a person of the practice, as the notifications context asks for one. */
export interface Email {
  /** The person it is for (the adapter finds their address). */
  readonly recipientId: string;
  readonly subject: string;
  readonly text: string;
  /**
   * The same for every attempt at the same email: a provider that deduplicates by key (an
   * `Idempotency-Key` header) sends it once even when a crash makes the sender ask twice.
   */
  readonly idempotencyKey: string;
}

/** Sends emails: the outside effect of the notifications context (a provider's API). */
export interface EmailSender {
  /** Hands the email to the provider; resolves once it accepted it. */
  send(email: Email): Promise<void>;
}

/** The token of {@linkcode EmailSender}. */
export const EmailSender: Token<EmailSender> = token<EmailSender>("notifications.EmailSender");
