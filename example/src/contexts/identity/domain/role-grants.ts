/** The roles of a practice, lowest first: each grants what the ones before it do, and more. */
export const practiceRoles = ["patient", "receptionist", "practitioner"] as const;

/** A role of a practice. */
export type PracticeRole = typeof practiceRoles[number];

/**
 * Whether someone holding `granterRoles` may grant `role`: only a role at or below the highest
 * they hold (a receptionist invites patients and receptionists, never a practitioner).
 */
export function mayGrant(granterRoles: readonly string[], role: PracticeRole): boolean {
  const highest = Math.max(
    -1,
    ...granterRoles.map((r) => practiceRoles.indexOf(r as PracticeRole)),
  );
  return practiceRoles.indexOf(role) <= highest;
}
