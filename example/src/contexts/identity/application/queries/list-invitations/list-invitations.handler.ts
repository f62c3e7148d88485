import { Handles } from "@kit/kernel";
import type { Invitation } from "../../../domain/person.ts";
import type { People } from "../../ports/people.ts";
import { ListInvitations } from "./list-invitations.query.ts";

/** Runs ListInvitations: only the invitations of the request's practice. */
@Handles(ListInvitations)
export class ListInvitationsHandler {
  constructor(private readonly people: People) {}

  handle(_query: ListInvitations): Promise<Invitation[]> {
    return this.people.invitations();
  }
}
