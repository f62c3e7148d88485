import type { RoleGrants } from "@kit/kernel";
// kit:begin permission-imports
import { availabilityPermissions } from "../../contexts/availability/availability.permissions.ts";
import { identityPermissions } from "../../contexts/identity/identity.permissions.ts";
import { jobsPermissions } from "@kit/jobs/dashboard";
import { notificationsPermissions } from "../../contexts/notifications/notifications.permissions.ts";
import { schedulingPermissions } from "../../contexts/scheduling/scheduling.permissions.ts";
// kit:end

/** The permissions granted to each role. */
export const grants: RoleGrants = {
  // kit:begin grants
  "operator": [jobsPermissions["jobs.read"], jobsPermissions["jobs.operate"]],
  "patient": [
    identityPermissions["person.read-self"],
    identityPermissions["person.register"],
    schedulingPermissions["appointment.book"],
    schedulingPermissions["calendar.read"],
    schedulingPermissions["appointment.read"],
    schedulingPermissions["appointment.cancel"],
    schedulingPermissions["appointment.confirm"],
    notificationsPermissions["notification.read"],
  ],
  "practitioner": [
    identityPermissions["person.invite"],
    identityPermissions["person.read-self"],
    identityPermissions["person.register"],
    notificationsPermissions["notification.send"],
    availabilityPermissions["availability.manage"],
    schedulingPermissions["appointment.book"],
    schedulingPermissions["calendar.read"],
    schedulingPermissions["appointment.read"],
    schedulingPermissions["appointment.cancel"],
    schedulingPermissions["calendar.clear"],
    schedulingPermissions["calendar.open"],
    schedulingPermissions["appointment.annotate"],
    notificationsPermissions["notification.read"],
  ],
  "receptionist": [
    identityPermissions["person.invite"],
    identityPermissions["person.read-self"],
    identityPermissions["person.register"],
    notificationsPermissions["notification.send"],
    schedulingPermissions["appointment.book"],
    schedulingPermissions["calendar.read"],
    schedulingPermissions["appointment.read"],
    schedulingPermissions["appointment.cancel"],
    schedulingPermissions["appointment.confirm"],
    schedulingPermissions["appointment.annotate"],
    notificationsPermissions["notification.read"],
  ],
  // kit:end
};
