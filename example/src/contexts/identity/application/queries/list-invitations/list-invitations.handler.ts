import { Handles } from "@kit/kernel";
import { ListInvitations, type ListInvitationsResult } from "./list-invitations.query.ts";

/** Runs ListInvitations. */
@Handles(ListInvitations)
export class ListInvitationsHandler {
  handle(_query: ListInvitations): Promise<ListInvitationsResult> {
    // TODO(domain): read what the query asks.
    return Promise.resolve({ id: "TODO(domain)" });
  }
}
