/** A registered person: the profile behind an actor id. */
export interface Person {
  readonly id: string;
  readonly tenantId?: string;
  readonly name: string;
  readonly email: string;
  readonly registeredAt: Date;
}

/** An invitation to join a practice in a role. */
export interface Invitation {
  readonly id: string;
  readonly tenantId?: string;
  readonly email: string;
  readonly role: "patient" | "receptionist" | "practitioner";
  readonly invitedBy: string;
  readonly invitedAt: Date;
}
