// Schedules: the list, one schedule described, and pause, unpause, trigger, backfill and delete.
import { ACTIONS, READ_ONLY, call, enc, get } from "./api.js";
import { $, confirmDialog, html, isoOf, json, link, mount, relative, runLink, toast, when, textOf } from "./ui.js";

const OVERLAP = ["SKIP", "BUFFER_ONE", "BUFFER_ALL", "CANCEL_OTHER", "TERMINATE_OTHER", "ALLOW_ALL"];

export function renderSchedules(view, params) {
  const open = params.get("open");
  if (open) return renderSchedule(view, open);
  mount(view, html`<h1>Schedules</h1><section class="card"><div id="schedules-error" class="error"></div><div id="schedules"></div></section>`);
  get("/schedules").then((list) => {
    mount($("#schedules"), list.length ? html`<div class="table-wrap"><table id="schedules-table"><thead><tr><th>schedule</th><th>workflow type</th><th>spec</th><th>state</th><th>next action</th></tr></thead><tbody>
      ${list.map((s) => html`<tr><td><a href="${link("schedules", { open: s.scheduleId })}">${s.scheduleId}</a></td><td>${s.workflowType}</td>
        <td class="small mono">${spec(s.spec)}</td><td>${s.paused ? html`<span class="status CANCELED">PAUSED</span>` : html`<span class="status RUNNING">ACTIVE</span>`}</td>
        <td title="${when(s.nextActionTime)}">${s.nextActionTime ? relative(s.nextActionTime) : html`<span class="muted">none</span>`}</td></tr>`)}
    </tbody></table></div>` : html`<p class="muted">No schedules. Create one with the client (<code>client.schedules().create(...)</code>) or <code>POST /durable/schedules</code>.</p>`);
  }).catch((e) => { textOf("#schedules-error", e.message); });
  return null;
}

/** A spec for people: its cron expressions, intervals and calendars, with the time zone. */
function spec(s) {
  const parts = [...(s.cronExpressions || []).map((c) => "cron " + c),
    ...(s.intervals || []).map((i) => "every " + i.every.replace(/^PT/, "").toLowerCase() + (i.offset && i.offset !== "PT0S" ? " offset " + i.offset : "")),
    ...(s.calendars || []).map((c) => `calendar ${c.second} ${c.minute} ${c.hour} ${c.dayOfMonth} ${c.month} ${c.dayOfWeek ?? ""}`)];
  return parts.join("; ") + (s.timeZone && s.timeZone !== "UTC" ? ` (${s.timeZone})` : "");
}

function renderSchedule(view, scheduleId) {
  const path = `/schedules/${enc(scheduleId)}`;
  // the outcome of an action stays outside what the reload after it renders again
  mount(view, html`<div class="breadcrumb"><a href="#/schedules">← schedules</a></div><div id="schedule-error" class="error"></div><div id="schedule"></div>
    ${ACTIONS && !READ_ONLY ? html`<div id="schedule-outcome" class="outcome"></div>` : ""}`);
  const load = () => get(path).then((d) => {
    if (!$("#schedule")) return; // the view was left meanwhile
    const s = d.schedule;
    const allowed = ACTIONS && !READ_ONLY;
    mount($("#schedule"), html`<h1>${d.scheduleId} ${s.paused ? html`<span class="status CANCELED">PAUSED</span>` : html`<span class="status RUNNING">ACTIVE</span>`}</h1>
      <div class="grid2">
        <section class="card"><h2>Schedule</h2><dl class="props">
          <dt>spec</dt><dd class="mono small">${spec(s.spec)}</dd>
          <dt>starts</dt><dd>${s.action.workflowType}${s.action.workflowIdPrefix ? html` <span class="muted">as ${s.action.workflowIdPrefix}…</span>` : ""}</dd>
          <dt>overlap policy</dt><dd>${s.overlapPolicy}</dd><dt>catch-up window</dt><dd>${s.catchupWindow}</dd>
          <dt>remaining actions</dt><dd>${s.remainingActions ?? "unlimited"}</dd>
          ${s.note ? html`<dt>note</dt><dd>${s.note}</dd>` : ""}
          <dt>actions taken</dt><dd>${d.actionCount} <span class="muted">(skipped ${d.skippedCount}, missed ${d.missedCount}, buffered ${d.bufferedCount})</span></dd>
          <dt>created</dt><dd>${when(d.createdAt)}</dd><dt>updated</dt><dd>${when(d.updatedAt)}</dd></dl>
          <h3>Input</h3>${json(s.action.input ?? null)}</section>
        <section class="card"><h2>Next actions</h2>${d.nextActionTimes.length ? html`<ul id="next-actions">${d.nextActionTimes.map((t) => html`<li>${when(t)} <span class="muted small">${relative(t)}</span></li>`)}</ul>` : html`<p class="muted">none</p>`}
          <h3>Running</h3>${d.runningWorkflowIds.length ? d.runningWorkflowIds.map((id) => html`<a class="chip" href="${runLink(id)}">${id}</a>`) : html`<span class="muted">none</span>`}</section>
      </div>
      <section class="card"><h2>Recent actions</h2>${d.recentActions.length ? html`<table id="recent-actions"><thead><tr><th>nominal time</th><th>actual time</th><th>origin</th><th>outcome</th><th>run</th></tr></thead><tbody>
        ${d.recentActions.map((a) => html`<tr><td>${when(a.nominalTime)}</td><td>${when(a.actualTime)}</td><td>${a.origin}</td><td>${a.outcome}${a.reason ? html` <span class="muted small">${a.reason}</span>` : ""}</td>
          <td>${a.workflowId ? html`<a href="${runLink(a.workflowId, a.runId)}">${a.workflowId}</a>` : ""}</td></tr>`)}</tbody></table>` : html`<p class="muted">none yet</p>`}</section>
      ${allowed ? html`<section class="card"><h2>Actions</h2><div class="actions">
        <div class="action"><h4>${s.paused ? "Unpause" : "Pause"}</h4><input id="schedule-note" placeholder="note, optional">
          <div><button class="plain" id="schedule-${s.paused ? "unpause" : "pause"}">${s.paused ? "Unpause" : "Pause"}</button></div></div>
        <div class="action"><h4>Trigger now</h4><select id="trigger-overlap"><option value="">schedule's overlap policy</option>${OVERLAP.map((o) => html`<option>${o}</option>`)}</select>
          <div><button id="schedule-trigger">Trigger</button></div></div>
        <div class="action"><h4>Backfill</h4><label class="field">from<input type="datetime-local" id="backfill-start"></label>
          <label class="field">to (exclusive)<input type="datetime-local" id="backfill-end"></label>
          <div><button class="plain" id="schedule-backfill">Backfill…</button></div></div>
        <div class="action"><h4>Delete</h4><p class="small muted">Runs it started go on.</p><div><button class="danger" id="schedule-delete">Delete…</button></div></div>
      </div></section>` : ""}`);
    if (!allowed) return;
    const outcome = async (what, action, after = load) => {
      try {
        const text = await action();
        mount($("#schedule-outcome"), html`<div class="panel ok" id="schedule-result"><b>${text}</b></div>`);
        toast(text);
        after();
      } catch (e) {
        mount($("#schedule-outcome"), html`<div class="panel bad" id="schedule-result"><b>${what} failed</b><div>${e.message}</div></div>`);
        toast(`${what} failed: ${e.message}`, true);
      }
    };
    const toggle = $(s.paused ? "#schedule-unpause" : "#schedule-pause");
    toggle.onclick = () => outcome(toggle.textContent, async () => {
      await call(`${path}/${s.paused ? "unpause" : "pause"}`, { method: "POST", body: JSON.stringify({ note: $("#schedule-note").value || null }) });
      return s.paused ? "unpaused" : "paused";
    });
    $("#schedule-trigger").onclick = () => outcome("Trigger", async () => {
      const { data } = await call(`${path}/trigger`, { method: "POST", body: JSON.stringify({ overlapPolicy: $("#trigger-overlap").value || null }) });
      return `triggered: ${data.outcome}${data.workflowId ? " " + data.workflowId : ""}`;
    });
    $("#schedule-backfill").onclick = async () => {
      const start = isoOf($("#backfill-start").value);
      const end = isoOf($("#backfill-end").value);
      if (!start || !end) { toast("Choose the start and the end of the backfill", true); return; }
      if (!await confirmDialog({ title: `Backfill ${scheduleId}?`, body: html`<p>Every action the spec names from ${when(start)} to ${when(end)} is taken now.</p>`, confirm: "Backfill" })) return;
      outcome("Backfill", async () => {
        const { data } = await call(`${path}/backfill`, { method: "POST", body: JSON.stringify({ start, end }) });
        return `backfilled: ${data.length} action(s)`;
      });
    };
    $("#schedule-delete").onclick = async () => {
      if (!await confirmDialog({ title: `Delete ${scheduleId}?`, body: html`<p>The schedule takes no further action; runs it started go on.</p>`, confirm: "Delete", danger: true })) return;
      outcome("Delete", async () => { await call(path, { method: "DELETE" }); return "deleted"; }, () => { location.hash = "#/schedules"; });
    };
  }).catch((e) => { textOf("#schedule-error", e.message); });
  load();
  return null;
}
