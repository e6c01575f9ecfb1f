// One run: status, input, result or failure, memo and search attributes, pending activities,
// a stuck task's failure, timers, children, the runs of the same workflow id, the history and the
// actions. An open run is refreshed every few seconds while the tab is visible.
import { enc, get, query, workflowTypes } from "./api.js";
import { renderActions } from "./actions.js";
import { pendingActivities, wireActivityActions } from "./activities.js";
import { listRoute } from "./runs.js";
import { children, compact, rawJson, timeline, timers } from "./timeline.js";
import { $, $$, between, duration, failure, html, json, link, mount, poll, props, relative, status, when, textOf } from "./ui.js";

const REFRESH_MS = 5000;
/** The outcome of an action that opened another run (a reset), shown on that run's page. */
let carried = null;
const TABS = { timeline: "Timeline", events: "Events", json: "JSON" };

/** The events that close a run. */
const CLOSING = ["WORKFLOW_COMPLETED", "WORKFLOW_FAILED", "WORKFLOW_CANCELED", "WORKFLOW_TERMINATED", "WORKFLOW_TIMED_OUT",
  "CONTINUED_AS_NEW"];

export function renderRun(view, params) {
  const workflowId = params.get("open");
  const runId = params.get("run") || "";
  const tab = TABS[params.get("tab")] ? params.get("tab") : "timeline";
  const back = listRoute(params);
  const here = (extra) => link("runs", { ...back, open: workflowId, run: runId, ...extra });
  mount(view, html`<div class="breadcrumb"><a href="${link("runs", back)}" id="back-to-runs">← runs${Object.keys(back).length ? " (filtered)" : ""}</a></div>
    <div id="run-error" class="error"></div>
    <div id="run-head"></div>
    <div class="grid2" id="run-body"></div>
    <section class="card" id="run-actions"><div id="run-actions-body"></div><div id="action-outcome" class="outcome"></div></section>
    <section class="card" id="run-history"><div class="tabs" id="history-tabs">
      ${Object.entries(TABS).map(([key, name]) => html`<a href="${here({ tab: key === "timeline" ? "" : key })}" data-tab="${key}" class="${key === tab ? "active" : ""}">${name}</a>`)}
      <span class="spacer"></span><span class="muted small" id="history-count"></span></div><div id="history"></div></section>`);
  if (carried) {
    mount($("#action-outcome"), html`<div class="panel ok" id="action-result"><b>${carried}</b></div>`);
    carried = null;
  }
  const pin = query({ runId });
  let last = null;
  let settled = false;
  let actionsFor = null;
  const load = async () => {
    try {
      const [run, history, chain, types, waits, current] = await Promise.all([
        get(`/workflows/${enc(workflowId)}${pin}`),
        get(`/workflows/${enc(workflowId)}/history${pin}`),
        get("/workflows" + query({ workflowIdPrefix: workflowId, pageSize: 100 })).then((p) => p.executions.filter((e) => e.workflowId === workflowId)),
        workflowTypes().catch(() => []),
        get(`/workflows/${enc(workflowId)}/waiting-on${pin}`).catch(() => []),
        get(`/workflows/${enc(workflowId)}/current-details${pin}`).then((c) => c.currentDetails).catch(() => null),
      ]);
      if (!$("#run-head")) return null; // the view was left meanwhile
      textOf("#run-error", "");
      // the description and the history are read side by side: a run that closed between
      // the two reads is closed in one and not yet in the other, so refreshing goes on
      // until both show the close
      settled = run.status !== "RUNNING" && history.some((e) => CLOSING.includes(e.type));
      const state = JSON.stringify([run, history.length, chain.map((c) => c.status), waits, current]);
      if (state !== last) {
        last = state;
        mount($("#run-head"), head(run));
        mount($("#run-body"), body(run, history, chain, waits, current));
        wireActivityActions($("#run-body"), run, () => { last = null; load(); });
        textOf("#history-count", `${history.length} events`);
        mount($("#history"), tab === "events" ? compact(history) : tab === "json" ? rawJson(history) : timeline(history, run));
        $$("#timeline tr.span").forEach((tr) => {
          tr.onclick = () => { const d = $(`#timeline tr[data-detail="${tr.dataset.span}"]`); d.hidden = !d.hidden; };
        });
      }
      // the actions are drawn again only when what they offer changes (a form being filled is kept)
      const offer = run.runId + run.status + (run.pausedAt ? " paused" : "");
      if (offer !== actionsFor) {
        actionsFor = offer;
        renderActions($("#run-actions-body"), run, history, types.find((t) => t.type === run.workflowType), (newRunId, text) => {
          if (newRunId) {
            carried = text;
            location.hash = link("runs", { ...back, open: workflowId, run: newRunId });
          } else { last = null; load(); }
        });
      }
      return run;
    } catch (e) {
      textOf("#run-error", e.message);
      return null;
    }
  };
  load();
  return poll(() => { if (!settled) load(); }, REFRESH_MS);
}

function head(run) {
  const took = run.closeTime ? between(run.startTime, run.closeTime) : Date.now() - new Date(run.startTime);
  const stuck = run.taskFailure ? html` <span class="status STUCK">TASK FAILING</span>` : "";
  const paused = run.pausedAt ? html` <span class="status PAUSED" id="paused-badge">PAUSED</span>` : "";
  const stranded = run.build && run.build.waitingForBuild
    ? html` <span class="status STUCK" id="build-badge" title="no node of build ${run.build.buildId} is live">WAITING FOR BUILD</span>` : "";
  return html`<h1><span id="run-title">${run.workflowId}</span> ${status(run.status)}${stuck}${paused}${stranded}</h1>
    <p class="muted small">${run.workflowType} · run <span class="mono" id="run-id">${run.runId}</span> · started ${when(run.startTime)}
      ${run.closeTime ? html` · closed ${when(run.closeTime)} after ${duration(took)}` : html` · running for ${duration(took)}`}
      ${run.parentWorkflowId ? html` · child of <a id="parent-link" href="${link("runs", { open: run.parentWorkflowId, run: run.parentRunId })}">${run.parentWorkflowId}</a>` : ""}</p>`;
}

function body(run, history, chain, waits, current) {
  const started = history.find((e) => e.type === "WORKFLOW_STARTED");
  const closing = history.find((e) => CLOSING.includes(e.type));
  const pendingTimers = timers(history);
  const kids = children(history);
  return html`
    <section class="card" id="run-summary"><h2>Run</h2>
      ${run.summary ? html`<p id="run-user-summary"><b>${run.summary}</b></p>` : ""}
      ${run.details ? html`<p class="small" id="run-user-details">${run.details}</p>` : ""}
      ${current ? html`<div class="panel" id="run-current-details"><span class="muted small">now</span> ${current}</div>` : ""}
      <dl class="props">
        <dt>workflow type</dt><dd>${run.workflowType}</dd><dt>task queue</dt><dd>${run.taskQueue}</dd>
        <dt>workflow tasks</dt><dd>${run.workflowTasks}</dd>
        ${run.build ? html`<dt>build</dt><dd id="run-build">${run.build.buildId}${run.build.pinned ? " · pinned" : " · auto-upgrade"}${run.build.waitingForBuild
          ? html` · <span class="error">no node of this build is live: the run waits for one, or for a move to another build</span>` : ""}${run.build.moveRefused
          ? html`<div class="small error" id="run-move-refused">move refused: ${run.build.moveRefused}</div>` : ""}</dd>` : ""}
        ${run.unfinishedHandlers ? html`<dt>unfinished handlers</dt><dd>${run.unfinishedHandlers}</dd>` : ""}
        ${run.pausedAt ? html`<dt>paused</dt><dd id="paused-since">since ${when(run.pausedAt)}${run.pauseReason ? html` · ${run.pauseReason}` : ""}:
          no workflow task or activity attempt until unpaused</dd>` : ""}
      </dl>
      ${run.taskFailure ? taskFailure(run) : ""}
      <h3>Input</h3>${started ? json(started.attributes.payload ?? null) : run.input !== undefined && run.input !== null
        ? html`<div id="run-unrecorded-input">${json(run.input)}<p class="small muted">not in the history yet: no workflow task has committed</p></div>`
        : html`<span class="muted">not recorded yet</span>`}
      ${outcome(run, closing)}
    </section>
    <section class="card"><h2>Memo and search attributes</h2>
      <h3>Search attributes</h3><div id="run-search-attributes">${props(run.searchAttributes)}</div>
      <h3>Memo</h3><div id="run-memo">${props(run.memo)}</div>
      ${chain.length > 1 ? html`<h3>Runs of this workflow id (continue-as-new, reset, retries)</h3>${runChain(chain, run)}` : ""}
    </section>
    ${run.pendingActivities.length ? html`<section class="card" id="pending-activities"><h2>Pending activities</h2>${pendingActivities(run)}</section>` : ""}
    ${waits.length ? html`<section class="card" id="waiting-on"><h2>Waiting for</h2>${waitTable(waits)}</section>` : ""}
    ${pendingTimers.length ? html`<section class="card" id="timers"><h2>Timers</h2>${timerTable(pendingTimers)}</section>` : ""}
    ${kids.length ? html`<section class="card" id="children"><h2>Child runs</h2>${childTable(kids)}</section>` : ""}`;
}

/** The failure of a workflow task that keeps failing: non-determinism is told apart and explained. */
function taskFailure(run) {
  const text = run.taskFailure;
  const nonDeterministic = /NonDeterministic/.test(text);
  const task = /[Ww]orkflow task (\d+)/.exec(text);
  const mismatch = /issued (.+?) where its history holds (.+?): the workflow code/.exec(text);
  const missing = /history holds (.+?) but the workflow code did not issue it/.exec(text);
  const recorded = mismatch ? mismatch[2] : missing ? missing[1] : null;
  const issued = mismatch ? mismatch[1] : missing ? "nothing" : null;
  return html`<div class="panel ${nonDeterministic ? "bad" : "warn"}" id="task-failure">
    <h4>${nonDeterministic ? "Non-determinism: the code no longer matches the recorded history" : "The workflow task is failing"}
      <span class="muted small">(attempt ${run.taskAttempts})</span></h4>
    ${nonDeterministic && recorded ? html`<dl class="props small" id="non-determinism">
      ${task ? html`<dt>workflow task</dt><dd>${task[1]}</dd>` : ""}
      <dt>history holds</dt><dd class="mono">${recorded}</dd><dt>the code now issues</dt><dd class="mono">${issued}</dd></dl>` : ""}
    <div class="mono small">${text}</div>
    ${nonDeterministic ? html`<p class="small">Deploy code that replays this history (guard the change with <code>Workflows.getVersion</code>),
      or reset the run to a workflow task before the change. The task is retried with backoff meanwhile; nothing of the run is lost.</p>`
      : html`<p class="small">The run stays open and its task is retried with backoff: fix the code and deploy, or reset or terminate the run.</p>`}
  </div>`;
}

function outcome(run, closing) {
  if (!closing) return "";
  const a = closing.attributes || {};
  switch (closing.type) {
    case "WORKFLOW_COMPLETED": return html`<h3>Result</h3><div id="run-result">${json(a.payload ?? null)}</div>`;
    case "WORKFLOW_FAILED": return html`<h3>Failure</h3><div class="panel bad" id="run-failure">${failure(a.failure)}</div>`;
    case "CONTINUED_AS_NEW": return html`<h3>Continued as new</h3><p class="small">with input</p>${json(a.payload ?? null)}`;
    default: return html`<h3>${closing.type.toLowerCase().replaceAll("_", " ")}</h3><div class="panel warn" id="run-closed">
      ${a.reason ? html`reason: <b>${a.reason}</b>` : html`<span class="muted">no reason given</span>`}${a.failure ? failure(a.failure) : ""}</div>`;
  }
}

function runChain(chain, current) {
  const ordered = [...chain].sort((a, b) => new Date(a.startTime) - new Date(b.startTime));
  return html`<table id="run-chain"><tbody>${ordered.map((r, i) => html`<tr class="${r.runId === current.runId ? "current" : ""}">
    <td class="muted">${i + 1}</td><td><a class="mono small" href="${link("runs", { open: r.workflowId, run: r.runId })}">${r.runId}</a></td>
    <td>${status(r.status)}</td><td class="small">${when(r.startTime)}</td></tr>`)}</tbody></table>`;
}

function timerTable(list) {
  return html`<table><thead><tr><th>timer</th><th>started</th><th>fires at</th><th>state</th></tr></thead><tbody>
    ${list.map((t) => html`<tr><td>#${t.first.attributes.seq}</td><td>${when(t.start)}</td>
      <td>${when(t.first.attributes.fireAt)} <span class="muted small">${t.state === "open" ? relative(t.first.attributes.fireAt) : ""}</span></td>
      <td>${t.state === "open" ? "pending" : t.state + " " + when(t.end)}</td></tr>`)}
  </tbody></table>`;
}

function childTable(list) {
  return html`<table><thead><tr><th>child</th><th>type</th><th>state</th><th>took</th><th>result</th></tr></thead><tbody>
    ${list.map((c) => html`<tr><td>${c.workflowId ? html`<a href="${link("runs", { open: c.workflowId, run: c.runId })}">${c.workflowId}</a>` : ""}</td>
      <td>${c.type}</td><td>${c.state}</td><td>${c.took !== null ? duration(c.took) : ""}</td>
      <td class="small mono">${c.failure ? html`<span class="error">${c.failure.message || ""}</span>` : c.result !== undefined ? JSON.stringify(c.result) : ""}</td></tr>`)}
  </tbody></table>`;
}

/** What the open run waits for now (GET .../waiting-on): one row per wait. */
function waitTable(waits) {
  return html`<div class="table-wrap"><table id="waits-table"><thead><tr><th>waits for</th><th>name</th><th>when</th><th>attempt</th><th>where / why</th></tr></thead><tbody>
    ${waits.map((w) => html`<tr data-kind="${w.kind}"><td>${w.kind.toLowerCase().replaceAll("_", " ")}</td><td class="mono">${w.name}</td>
      <td title="${w.until || ""}">${w.until ? when(w.until) : ""}</td><td class="num">${w.attempt ?? ""}</td>
      <td class="small">${w.location ? html`<span class="mono">${w.location}</span>` : ""}${w.detail ? html`<span class="muted">${w.detail}</span>` : ""}</td></tr>`)}
  </tbody></table></div>`;
}
