// The report's only stylesheet, inlined so the file stands alone (no network, allowed by its CSP hash).
export const STYLE = `
:root { --fg:#1d2330; --muted:#667085; --line:#e3e6ec; --bg:#f6f7f9; --card:#fff;
  --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --skip:#57606a; --error:#8250df; --blocked:#b35900; --untestable:#6e7781; --nc:#bc4c00; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
code, pre, .id, .url { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
header, .summary, .causes, .problems, .filters, main { max-width: 1320px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 20px; }
h1 { font-size: 22px; margin: 0 0 12px; display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
.verdict { font-size: 14px; padding: 3px 12px; border-radius: 999px; color: #fff; text-transform: uppercase; letter-spacing: .04em; }
.verdict-conformant { background: var(--pass); } .verdict-not-conformant { background: var(--fail); } .verdict-incomplete { background: var(--warn); } .verdict-no-verdict { background: #57606a; }
.verdict-note { font-size: 13px; font-weight: normal; color: var(--muted); }
.head-grid { display: grid; grid-template-columns: 1fr auto; gap: 12px; align-items: start; margin-bottom: 12px; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; background: var(--card);
  border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
.meta dt { color: var(--muted); } .meta dd { margin: 0; overflow-wrap: anywhere; }
.interrupted { color: var(--fail); font-weight: 600; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; align-items: stretch; margin-bottom: 12px; }
.chip { border: 1px solid var(--line); background: var(--card); border-radius: 8px; padding: 6px 12px; cursor: pointer; text-align: left; font: inherit; color: inherit; }
.chip:hover { border-color: var(--muted); }
.chip b { display: block; font-size: 20px; line-height: 1.1; }
.chip small { display: block; color: var(--muted); font-size: 11.5px; }
.chip.st-pass b { color: var(--pass); } .chip.st-fail b { color: var(--fail); } .chip.st-warn b { color: var(--warn); }
.chip.st-skip b { color: var(--skip); } .chip.st-error b { color: var(--error); } .chip.st-not-covered b { color: var(--nc); }
.chip.st-untestable b { color: var(--untestable); } .chip.st-blocked b { color: var(--blocked); } .chip.must-failed b { color: var(--fail); }
.levels { border-collapse: separate; border-spacing: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; font-size: 12.5px; }
.levels th, .levels td { padding: 4px 9px; text-align: right; border-bottom: 1px solid var(--line); }
.levels tr:last-child td { border-bottom: none; } .levels th { color: var(--muted); font-weight: 600; }
.levels th:first-child, .levels td:first-child { text-align: left; }
.levels td.zero { color: #c0c4cc; }
.causes h2 { margin-top: 4px; } .causes ul { list-style: none; margin: 0 0 12px; padding: 0; }
.cause { background: var(--card); border: 1px solid var(--line); border-left: 3px solid var(--fail); border-radius: 6px; padding: 6px 10px; margin-bottom: 6px; }
.cause-reason { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; color: var(--fail); margin-top: 3px; overflow-wrap: anywhere; }
.blocks { color: var(--muted); font-size: 12.5px; margin-top: 3px; }
.matrix tr[data-status="blocked"] td:first-child { box-shadow: inset 3px 0 0 var(--blocked); }
.matrix tr[data-status="fail"] .reason { color: var(--fail); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.exchange.x-broke { border-color: var(--fail); box-shadow: 0 0 0 1px var(--fail); } .broke { color: var(--fail); font-weight: 600; }
.x-expected { color: var(--pass); font-weight: 700; } .x-unexpected { color: var(--fail); font-weight: 700; }
.problems { color: var(--error); } .problems ul { margin: 4px 0 12px; }
.filters { position: sticky; top: 0; z-index: 2; background: var(--bg); padding-top: 8px; padding-bottom: 8px;
  display: flex; flex-wrap: wrap; gap: 10px; align-items: center; border-bottom: 1px solid var(--line); }
.filters label { display: flex; gap: 6px; align-items: center; color: var(--muted); }
.filters select, .filters input { font: inherit; padding: 4px 6px; border: 1px solid #c9ced6; border-radius: 6px; background: #fff; color: var(--fg); }
.filters input { width: 220px; } #f-section { max-width: 260px; }
.filters button { font: inherit; padding: 4px 10px; border: 1px solid #c9ced6; border-radius: 6px; background: #fff; cursor: pointer; }
.shown { margin-left: auto; color: var(--muted); }
h2 { font-size: 16px; margin: 22px 0 8px; } .secno { color: var(--muted); font-weight: 600; margin-right: 4px; }
table.matrix { width: 100%; border-collapse: collapse; table-layout: fixed; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
.c-id { width: 240px; } .c-level { width: 96px; } .c-observer { width: 84px; } .c-status { width: 120px; }
.matrix th { text-align: left; font-weight: 600; color: var(--muted); font-size: 12px; padding: 6px 10px; border-bottom: 1px solid var(--line); }
.matrix td { padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
.matrix tr:last-child td { border-bottom: none; }
.matrix tr:target td { background: #fff8c5; }
.matrix tr[data-status="fail"] td:first-child { box-shadow: inset 3px 0 0 var(--fail); }
.matrix tr[data-status="error"] td:first-child { box-shadow: inset 3px 0 0 var(--error); }
.matrix tr[data-status="warn"] td:first-child { box-shadow: inset 3px 0 0 #d4a72c; }
.id a { color: var(--fg); text-decoration: none; overflow-wrap: anywhere; } .id a:hover { text-decoration: underline; }
.observer { color: var(--muted); }
.level { font-size: 11.5px; font-weight: 600; white-space: nowrap; }
.lv-must, .lv-must-not { color: var(--fg); } .lv-should, .lv-should-not { color: #4b5563; } .lv-may { color: var(--muted); font-weight: 500; }
.badge { display: inline-block; min-width: 64px; text-align: center; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.st-pass.badge { background: var(--pass); } .st-fail.badge { background: var(--fail); } .st-warn.badge { background: #d4a72c; color: #3b2300; }
.st-skip.badge { background: #d0d7de; color: #24292f; } .st-error.badge { background: var(--error); }
.st-blocked.badge { background: #fff; color: var(--blocked); border: 1px solid var(--blocked); }
.st-untestable.badge { background: #fff; color: var(--untestable); border: 1px dashed #8c959f; }
.st-not-covered.badge { background: #fff1e5; color: var(--nc); border: 1px solid #f3b07a; }
.unproven { display: inline-block; margin-top: 3px; padding: 0 6px; border: 1px dashed var(--nc); border-radius: 999px; color: var(--nc); font-size: 11.5px; font-weight: 600; }
.faults { margin-top: 8px; font-size: 12.5px; } .faults ul { margin: 2px 0 0; padding-left: 18px; }
.reason, .errata, .test-reason { color: var(--muted); font-size: 12.5px; margin-top: 3px; }
.label { font-weight: 600; color: var(--muted); margin-right: 6px; font-size: 12px; }
details { margin-top: 6px; }
summary { cursor: pointer; color: #0b62c4; font-size: 12.5px; }
details.failure > summary { color: var(--fail); font-weight: 600; }
details[open] { background: #fafbfc; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px 10px; }
.test { margin-top: 8px; } .test-head { display: flex; flex-wrap: wrap; gap: 6px; align-items: baseline; }
.test-title { font-weight: 500; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0 0; padding: 8px; background: #f3f4f6; border-radius: 6px; max-height: 420px; overflow: auto; }
pre.error { background: #fff0f0; border-left: 3px solid var(--fail); }
.replay { margin-top: 6px; display: flex; flex-wrap: wrap; align-items: baseline; }
.replay code { background: #eef2f7; padding: 3px 6px; border-radius: 4px; overflow-wrap: anywhere; user-select: all; }
.evidence { margin-top: 10px; } .evidence-title { font-weight: 600; margin-bottom: 4px; }
.exchange { border: 1px solid var(--line); border-radius: 6px; margin-top: 8px; background: #fff; }
.reqline { padding: 6px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.panes { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; padding: 0 8px 8px; }
.pane { min-width: 0; } .pane-title { font-weight: 600; font-size: 12px; color: var(--muted); margin-top: 6px; }
.x-status { font-weight: 700; } .x-2xx { color: var(--pass); } .x-3xx { color: #0b62c4; } .x-4xx { color: var(--warn); } .x-5xx, .x-error { color: var(--fail); font-weight: 700; }
.muted { color: var(--muted); }
.attention h2 { color: var(--fail); }
details.spec-section { margin: 8px 0 0; background: none; border: none; padding: 0; }
details.spec-section > summary { list-style: none; display: flex; align-items: baseline; gap: 12px; color: var(--fg); font-size: 14px; }
details.spec-section > summary h2 { margin: 10px 0 4px; display: inline; }
details.spec-section > summary::before { content: '\\25B8'; color: var(--muted); } details.spec-section[open] > summary::before { content: '\\25BE'; }
.sec-counts { color: var(--muted); font-size: 12.5px; }
.selfcheck { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 8px; padding: 8px 12px; margin-bottom: 12px; }
.verdict-selfcheck { background: #9a6700; }
.copyable { position: relative; } button.copy { font: inherit; font-size: 11.5px; padding: 1px 8px; margin-top: 4px; border: 1px solid #c9ced6; border-radius: 6px; background: #fff; cursor: pointer; }
details.fold > summary, details.curl > summary { color: var(--muted); }
footer { max-width: 1320px; margin: 24px auto; padding: 0 20px; color: var(--muted); font-size: 12px; }
@media (max-width: 1000px) { .panes, .head-grid { grid-template-columns: 1fr; } }
`;
