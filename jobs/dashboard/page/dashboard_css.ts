/**
 * The dashboard page's stylesheet: readable from phone width up (tables scroll sideways in their
 * own box, forms wrap), visible keyboard focus, light and dark.
 */
export const dashboardCss = `:root {
  color-scheme: light dark;
  --fg: #1b1f24; --muted: #5b6470; --bg: #fff; --panel: #f4f6f8; --line: #d0d6dd;
  --accent: #0b5cad; --danger: #b42318; --ok: #1a7f37; --focus: #f5a623;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ed; --muted: #9aa4b0; --bg: #111418; --panel: #1b2027; --line: #2f3742;
    --accent: #6cb2ff; --danger: #ff7b72; --ok: #56d364; }
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 0.5rem; top: 0.5rem; background: var(--bg); padding: 0.5rem; z-index: 1; }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center;
  padding: 0.75rem 1rem; background: var(--panel); border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 1.25rem; }
header h1 a { color: inherit; text-decoration: none; }
.token { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; flex: 1 1 20rem; }
.token input { flex: 1 1 10rem; min-width: 0; }
.help { flex-basis: 100%; margin: 0; font-size: 0.8rem; color: var(--muted); }
.live { margin: 0; font-size: 0.85rem; color: var(--muted); }
.live.on { color: var(--ok); }
main { padding: 1rem; max-width: 72rem; }
main:focus { outline: none; }
#status { margin: 0; padding: 0 1rem; min-height: 1.5rem; }
#status.error { color: var(--danger); font-weight: 600; }
.refused { border: 2px solid var(--danger); border-radius: 6px; padding: 1rem; }
.refused h2 { color: var(--danger); margin-top: 0; }
h2 { font-size: 1.15rem; }
input, select, button { font: inherit; padding: 0.35rem 0.6rem; border-radius: 4px;
  border: 1px solid var(--line); background: var(--bg); color: var(--fg); }
button { cursor: pointer; background: var(--panel); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--bg); }
button.danger { border-color: var(--danger); color: var(--danger); }
button:disabled { opacity: 0.5; cursor: default; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
.scroll:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
td.message { white-space: normal; overflow-wrap: anywhere; min-width: 12rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid var(--line);
  white-space: nowrap; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:last-child td { border-bottom: 0; }
progress { width: 8rem; max-width: 100%; height: 0.9rem; vertical-align: middle; }
.job-progress progress { width: 100%; max-width: 24rem; }
form.search, form.purge, .actions, .pager, .confirm { display: flex; flex-wrap: wrap; gap: 0.5rem;
  align-items: end; margin: 0.75rem 0; }
form.search label, form.purge label { display: flex; flex-direction: column; font-size: 0.85rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
pre { background: var(--panel); padding: 0.75rem; border-radius: 6px; overflow-x: auto; }
figure.activity { margin: 0 0 1rem; padding: 0.6rem 0.75rem; border: 1px solid var(--line);
  border-radius: 6px; }
figure.activity figcaption { font-weight: 600; }
.activity-summary { font-weight: 400; color: var(--muted); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
  gap: 0.5rem 1rem; margin: 0.4rem 0; }
.chart-title { display: block; font-size: 0.8rem; color: var(--muted); }
svg.chart { display: block; width: 100%; height: 3rem; background: var(--panel);
  border-radius: 4px; }
svg.chart .axis { stroke: var(--line); stroke-width: 0.5; }
svg.chart-ok rect { fill: var(--ok); }
svg.chart-fail rect { fill: var(--danger); }
details summary { cursor: pointer; font-size: 0.9rem; }
.status-dead, .status-cancelled { color: var(--danger); }
.status-succeeded { color: var(--ok); }
@media (max-width: 40rem) {
  main { padding: 0.75rem; }
  dl { grid-template-columns: 1fr; }
  dt { margin-top: 0.4rem; }
  form.search > *, form.purge > * { flex: 1 1 100%; }
  form.search input, form.search select, form.purge input { width: 100%; }
}
`;
