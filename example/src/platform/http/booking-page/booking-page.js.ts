/**
 * The booking page's script (plain JavaScript, served as is): lists the free slots of a calendar
 * for a day (GET /calendars/:id/slots) and books one (POST /appointments/) with the token given,
 * then lists the slots again. A token may also come in the address's fragment (`#token=...`).
 */
export const bookingPageJs = `"use strict";
const $ = (id) => document.getElementById(id);
const say = (text) => { $("status").textContent = text; };
const token = () => $("token").value.trim();
const headers = () => ({ authorization: "Bearer " + token() });
const fromFragment = new URLSearchParams(location.hash.slice(1)).get("token");
if (fromFragment) $("token").value = fromFragment;
const tomorrow = new Date(Date.now() + 86400000).toISOString().slice(0, 10);
if (!$("day").value) $("day").value = tomorrow;

async function problemText(response) {
  try {
    const problem = await response.json();
    return problem.detail || problem.title || String(response.status);
  } catch {
    return String(response.status);
  }
}

async function listSlots() {
  const day = $("day").value;
  const from = new Date(day + "T00:00:00Z");
  const until = new Date(from.getTime() + 86400000);
  const query = new URLSearchParams({
    from: from.toISOString(),
    until: until.toISOString(),
    appointmentTypeId: $("type").value,
  });
  const calendar = encodeURIComponent($("calendar").value);
  const response = await fetch("/calendars/" + calendar + "/slots?" + query, { headers: headers() });
  const list = $("slots");
  list.replaceChildren();
  if (!response.ok) {
    say("No slots: " + await problemText(response));
    return;
  }
  const { slots, timeZone } = await response.json();
  for (const slot of slots) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.startsAt = slot.startsAt;
    button.textContent = new Date(slot.startsAt).toLocaleTimeString([], {
      hour: "2-digit", minute: "2-digit", timeZone,
    });
    button.addEventListener("click", () => book(slot.startsAt));
    item.append(button);
    list.append(item);
  }
  say(slots.length === 0 ? "No free slot that day." : slots.length + " free slots (" + timeZone + ").");
}

async function book(startsAt) {
  const response = await fetch("/appointments/", {
    method: "POST",
    headers: { ...headers(), "content-type": "application/json" },
    body: JSON.stringify({
      calendarId: $("calendar").value,
      appointmentTypeId: $("type").value,
      startsAt,
    }),
  });
  const booked = response.status === 201;
  const message = booked ? "Booked " + startsAt + "." : "Not booked: " + await problemText(response);
  await listSlots();
  say(message);
}

$("search").addEventListener("submit", (event) => {
  event.preventDefault();
  listSlots().catch((error) => say("Error: " + error.message));
});
`;
