import { definePermissions } from "@kit/kernel";

/** The permissions of the identity context. */
export const identityPermissions = definePermissions("identity", {
  // kit:begin permissions
  "person.invite": { description: "TODO(domain): who may invite person" },
  "person.read-self": { description: "TODO(domain): who may read-self person" },
  "person.register": { description: "TODO(domain): who may register person" },
  // kit:end
});
