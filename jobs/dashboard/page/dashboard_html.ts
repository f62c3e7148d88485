/**
 * The dashboard page's HTML: the frame the script fills. It holds no data (every job and count
 * comes from the JSON routes, with the operator's token), so it is served to anyone. With
 * `outbox`, the script shows the outbox's backlog (`GET <prefix>/outbox` is mounted); with
 * `processes`, the process managers' section (`GET <prefix>/processes` is mounted).
 */
export function dashboardHtml(
  prefix: string,
  options: { outbox?: boolean; processes?: boolean } = {},
): string {
  const base = escapeHtml(prefix);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Jobs</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${base}/assets/dashboard.css">
  <script src="${base}/assets/dashboard.js" defer></script>
</head>
<body data-prefix="${base}"${options.outbox === true ? ' data-outbox="on"' : ""}${
    options.processes === true ? ' data-processes="on"' : ""
  }>
  <a class="skip" href="#main">Skip to the jobs</a>
  <header>
    <h1><a href="#/">Jobs</a></h1>
    <form id="token-form" class="token" autocomplete="off">
      <label for="token">Bearer token</label>
      <input id="token" name="token" type="password" spellcheck="false"
        aria-describedby="token-help">
      <button type="submit">Use token</button>
      <button type="button" id="forget-token">Forget</button>
      <p id="token-help" class="help">Kept in this tab only (sessionStorage), sent as
        <code>Authorization: Bearer</code> to this server's jobs API.</p>
    </form>
    <p class="live" id="live" aria-live="polite">Not connected</p>
  </header>
  <p id="status" role="status" aria-live="polite"></p>
  <main id="main" tabindex="-1"></main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
