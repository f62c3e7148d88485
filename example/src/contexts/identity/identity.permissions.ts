import { definePermissions } from "@kit/kernel";

/** The permissions of the identity context. */
export const identityPermissions = definePermissions("identity", {
  // kit:begin permissions
  "person.invite": { description: "Invite people to the practice and see the invitations" },
  "person.read-self": { description: "Read one's own identity" },
  "person.register": { description: "Register one's own profile" },
  // kit:end
});
