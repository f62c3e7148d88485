/** A registered person: the profile behind an actor id, in one practice. */
export interface Person {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly registeredAt: Date;
}

/** An invitation to join a practice in a role. */
export interface Invitation {
  readonly id: string;
  readonly email: string;
  readonly role: "patient" | "receptionist" | "practitioner";
  readonly invitedBy: string;
  readonly invitedAt: Date;
}
