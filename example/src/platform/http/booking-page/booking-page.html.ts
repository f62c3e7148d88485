/** The booking page's HTML: a form, the free slots, and what happened (read by assistive tech). */
export const bookingPageHtml = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Book an appointment</title>
  <link rel="stylesheet" href="/book/style.css">
  <script src="/book/app.js" defer></script>
</head>
<body>
  <main>
    <h1>Book an appointment</h1>
    <form id="search">
      <label>Your token <textarea id="token" rows="3" required
        placeholder="A patient's token: deno task dev prints one"></textarea></label>
      <label>Calendar <input id="calendar" value="cal-1" required></label>
      <label>Appointment type <input id="type" value="checkup" required></label>
      <label>Day <input id="day" type="date" required></label>
      <button type="submit">Find free slots</button>
    </form>
    <p id="status" role="status" aria-live="polite"></p>
    <ul id="slots" aria-label="Free slots"></ul>
  </main>
</body>
</html>
`;
