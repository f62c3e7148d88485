#!/usr/bin/env bash
# How example/ was made: `kit init` and the generators, before the domain logic was written by
# hand. Kept as the record of what each generator wrote; rerunning it into an empty directory
# shows a user what they get (`bash example/scripts/scaffold.sh /tmp/scheduling`: the project is
# named after its directory, and the example's kit.config.json names it "scheduling"). The platform
# and docs files kit init writes stay as generated in example/, save those
# cli/project/example_files_test.ts names with the reason.
set -euo pipefail
out="${1:?usage: scaffold.sh <empty directory>}"
kit_root="$(cd "$(dirname "$0")/../.." && pwd)"
kit() { deno run -A "$kit_root/cli/main.ts" "$@"; }
kit init "$out" --context identity:generic --context scheduling:core \
  --context availability:supporting --context notifications:generic \
  --context analytics:generic --queue database --link "$kit_root"
cd "$out"
g() { echo "+ kit generate $*"; kit generate "$@" >/dev/null; }
g aggregate scheduling Calendar
g aggregate scheduling Appointment
g command scheduling OpenCalendar --permission calendar.open
g command scheduling DefineAppointmentType --permission calendar.open
g command scheduling BookAppointment --permission appointment.book
g command scheduling CancelAppointment --permission appointment.cancel
g command scheduling ConfirmAppointment --permission appointment.confirm
g command scheduling RequestClearance --permission calendar.clear
g query scheduling GetClearance --permission calendar.clear
g query scheduling ListAppointments --permission appointment.read
g command scheduling WriteAppointmentNotes --permission appointment.annotate
g background-job scheduling ClearCalendar --command CancelAppointment
g route-group scheduling Calendars
g route-group scheduling Appointments --role patient
g integration-event scheduling AppointmentBooked
g integration-event scheduling AppointmentConfirmed
g integration-event scheduling AppointmentRescheduled
g integration-event scheduling AppointmentCancelled
g integration-event scheduling CalendarOpened
g integration-event scheduling CalendarCleared
g aggregate availability OpeningHours
g command availability SetOpeningHours --permission availability.manage
g command availability AddTimeOff --permission availability.manage
g integration-event identity PersonRegistered
g command identity RegisterPerson --permission person.register
g query identity GetMe --permission person.read-self
g query identity ListInvitations --permission person.invite
g route-group identity People
g integration-handler notifications AppointmentBooked
g integration-handler notifications AppointmentCancelled
g integration-handler notifications AppointmentConfirmed
g integration-handler notifications AppointmentRescheduled
g query notifications SearchNotifications --permission notification.read --search
g query notifications GetPreferences --permission notification.read
g command notifications SendNotification --permission notification.send
g route-group notifications Notifications
g integration-handler analytics AppointmentBooked
g integration-handler analytics AppointmentCancelled
g integration-handler analytics PersonRegistered
g worker scheduling Worker
# The slice plan, kept by kit: the contracts are made (notifications and analytics publish
# nothing: they only consume), so their rows are done.
kit slice done 2 3 4 5 6
