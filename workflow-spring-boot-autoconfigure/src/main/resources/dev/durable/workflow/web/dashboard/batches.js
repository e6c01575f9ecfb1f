// Batch operations: cancel, terminate, signal, reset, pause or unpause every run a filter matches, as a tracked
// operation of the server (REST /batches); the list shows their progress while any runs.
import { ACTIONS, READ_ONLY, call, enc, get, query, workflowTypes } from "./api.js";
import { $, confirmDialog, html, isoOf, json, link, localOf, mount, parseJson, poll, runLink, status, toast, when, textOf } from "./ui.js";

const REFRESH_MS = 2000;
const STATUSES = ["RUNNING", "COMPLETED", "FAILED", "CANCELED", "TERMINATED", "TIMED_OUT", "CONTINUED_AS_NEW"];

export function renderBatches(view, params) {
  const open = params.get("open");
  if (open) return renderBatch(view, open);
  const allowed = ACTIONS && !READ_ONLY;
  mount(view, html`<h1>Batch operations</h1>
    ${allowed ? newBatchForm(params) : html`<section class="card muted small">Starting a batch is an operation: it needs durable.workflow.web.operations-enabled, or the role durable.workflow.web.required-role names.</section>`}
    <section class="card"><h2>Latest batches <span class="muted small" id="batches-updated"></span></h2><div id="batches-error" class="error"></div><div id="batches"></div></section>`);
  if (allowed) wireForm(params);
  const load = async () => {
    try {
      const list = await get("/batches?limit=50");
      textOf("#batches-error", "");
      mount($("#batches"), list.length ? html`<div class="table-wrap"><table id="batches-table"><thead><tr><th>batch</th><th>operation</th><th>state</th><th>progress</th>
        <th class="num">succeeded</th><th class="num">skipped</th><th class="num">failed</th><th>created</th></tr></thead><tbody>
        ${list.map((b) => html`<tr data-batch="${b.batchId}"><td><a href="${link("batches", { open: b.batchId })}">${b.batchId}</a></td><td>${b.operation}${b.signal ? " " + b.signal.name : ""}${b.resetTo ? " " + b.resetTo : ""}</td>
          <td>${state(b.state)}</td><td>${progress(b)}</td><td class="num">${b.succeeded}</td><td class="num">${b.skipped}</td>
          <td class="num ${b.failed ? "error" : ""}">${b.failed}</td><td class="small">${when(b.createdAt)}</td></tr>`)}
      </tbody></table></div>` : html`<p class="muted">No batch yet.</p>`);
      textOf("#batches-updated", list.some((b) => b.state === "RUNNING") ? "refreshing while one runs" : "");
    } catch (e) {
      textOf("#batches-error", e.message);
    }
  };
  load();
  return poll(load, REFRESH_MS);
}

const state = (s) => html`<span class="status ${s === "RUNNING" ? "RUNNING" : s === "COMPLETED" ? "COMPLETED" : s === "FAILED" ? "FAILED" : "CANCELED"}">${s}</span>`;

function progress(b) {
  const pct = b.total ? Math.round((b.processed / b.total) * 100) : (b.state === "RUNNING" ? 0 : 100);
  return html`<div class="row"><div class="progress"><div style="width:${pct}%"></div></div><span class="small">${b.processed} / ${b.total}</span></div>`;
}

function newBatchForm(params) {
  return html`<section class="card"><h2>New batch</h2>
    <form id="batch-form" class="stack">
      <div class="filters">
        <label class="field">operation<select id="b-operation" name="operation">${["CANCEL", "TERMINATE", "SIGNAL", "RESET", "PAUSE", "UNPAUSE"].map((o) => html`<option>${o}</option>`)}</select></label>
        <label class="field">type<select id="b-type" name="type"><option value="">any type</option></select></label>
        <label class="field">status<select id="b-status" name="status"><option value="">any status</option>
          ${STATUSES.map((s) => html`<option ${params.get("status") === s ? "selected" : ""}>${s}</option>`)}</select></label>
        <label class="field">paused<select id="b-paused" name="paused"><option value="">paused or not</option>
          ${["true", "false"].map((p) => html`<option value="${p}" ${params.get("paused") === p ? "selected" : ""}>${p === "true" ? "paused only" : "not paused"}</option>`)}</select></label>
        <label class="field">workflow id prefix<input id="b-prefix" name="prefix" size="16" value="${params.get("prefix") || ""}"></label>
        <label class="field">search attributes<input id="b-query" name="q" class="wide" value="${params.get("q") || ""}" placeholder="customer = 'c-42'"></label>
        <label class="field">started from<input type="datetime-local" id="b-from" name="from" value="${localOf(params.get("from"))}"></label>
        <label class="field">started before<input type="datetime-local" id="b-to" name="to" value="${localOf(params.get("to"))}"></label>
      </div>
      <div class="filters">
        <label class="field">reason<input id="b-reason" name="reason" class="wide" value="from the dashboard"></label>
        <label class="field" id="b-signal-field" hidden>signal name<input id="b-signal" name="signal"></label>
        <label class="field" id="b-args-field" hidden>signal payload (JSON)<input id="b-args" name="args" class="wide"></label>
        <label class="field" id="b-reset-field" hidden>reset to<select id="b-reset" name="resetTo"><option>LAST_WORKFLOW_TASK</option><option>FIRST_WORKFLOW_TASK</option></select></label>
      </div>
      <div class="row"><button type="button" class="plain" id="b-preview">Preview matching runs</button><button id="b-start">Start batch…</button>
        <span class="muted small" id="b-count"></span></div>
      <div id="b-outcome"></div><div id="b-preview-list"></div>
    </form></section>`;
}

function wireForm(params) {
  workflowTypes().then((types) => {
    for (const t of types) $("#b-type").insertAdjacentHTML("beforeend", html`<option ${params.get("type") === t.type ? "selected" : ""}>${t.type}</option>`.text);
  }).catch(() => {});
  const operation = $("#b-operation");
  operation.onchange = () => {
    $("#b-signal-field").hidden = operation.value !== "SIGNAL";
    $("#b-args-field").hidden = operation.value !== "SIGNAL";
    $("#b-reset-field").hidden = operation.value !== "RESET";
  };
  const filter = () => {
    const f = { type: $("#b-type").value, status: $("#b-status").value ? [$("#b-status").value] : undefined, query: $("#b-query").value,
      workflowIdPrefix: $("#b-prefix").value, startedFrom: isoOf($("#b-from").value), startedTo: isoOf($("#b-to").value),
      paused: $("#b-paused").value === "" ? undefined : $("#b-paused").value === "true" };
    return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== "" && v !== undefined));
  };
  const matching = async () => {
    const f = filter();
    const page = await get("/workflows" + query({ type: f.type, status: f.status, query: f.query, workflowIdPrefix: f.workflowIdPrefix,
      startedFrom: f.startedFrom, startedTo: f.startedTo, paused: f.paused, pageSize: 100 }));
    return page;
  };
  $("#b-preview").onclick = async () => {
    try {
      const page = await matching();
      textOf("#b-count", `${page.executions.length}${page.nextPageToken ? "+" : ""} run(s) match now`);
      mount($("#b-preview-list"), html`<div class="table-wrap"><table id="b-preview-table"><tbody>${page.executions.slice(0, 20).map((r) => html`<tr><td><a href="${runLink(r.workflowId, r.runId)}">${r.workflowId}</a></td><td>${r.workflowType}</td><td>${status(r.status)}</td><td class="small">${when(r.startTime)}</td></tr>`)}</tbody></table></div>
        ${page.executions.length > 20 ? html`<p class="muted small">and more…</p>` : ""}`);
    } catch (e) {
      textOf("#b-count", e.message);
    }
  };
  $("#batch-form").onsubmit = async (e) => {
    e.preventDefault();
    const out = $("#b-outcome");
    try {
      const op = operation.value;
      const body = { batchId: "dashboard-" + new Date().toISOString().replace(/[-:.TZ]/g, "").slice(0, 14) + "-" + Math.random().toString(36).slice(2, 6),
        operation: op, filter: filter(), reason: $("#b-reason").value || null };
      if (op === "SIGNAL") {
        if (!$("#b-signal").value.trim()) throw new Error("A SIGNAL batch needs a signal name");
        const payload = parseJson($("#b-args").value, "The signal payload");
        body.signal = { name: $("#b-signal").value.trim(), args: payload === null ? [] : [payload] };
      }
      if (op === "RESET") body.resetTo = $("#b-reset").value;
      if (!Object.keys(body.filter).length) body.confirmAll = true;
      const page = await matching();
      const count = `${page.executions.length}${page.nextPageToken ? " or more" : ""}`;
      if (!await confirmDialog({ title: `${op} ${count} run(s)?`, danger: op !== "SIGNAL",
        body: html`<p>The batch applies ${op} to every run the filter matches when it reaches it${body.confirmAll ? html` — <b>the filter is empty: every run</b>` : ""}.</p>${json(body.filter)}`,
        confirm: `Start ${op.toLowerCase()} batch` })) return;
      const { data } = await call("/batches", { method: "POST", body: JSON.stringify(body) });
      toast(`batch ${data.batchId} started`);
      location.hash = link("batches", { open: data.batchId });
    } catch (error) {
      mount(out, html`<div class="panel bad" id="batch-error"><b>Not started</b><div>${error.message}</div></div>`);
    }
  };
}

function renderBatch(view, batchId) {
  mount(view, html`<div class="breadcrumb"><a href="#/batches">← batches</a></div><div id="batch-error" class="error"></div><div id="batch"></div>`);
  const load = async () => {
    try {
      const b = await get(`/batches/${enc(batchId)}`);
      mount($("#batch"), html`<h1>${b.batchId} ${state(b.state)}</h1>
        <div class="grid2"><section class="card"><h2>${b.operation}${b.signal ? " " + b.signal.name : ""}${b.resetTo ? " to " + b.resetTo : ""}</h2>
          <div id="batch-progress">${progress(b)}</div>
          <dl class="props"><dt>succeeded</dt><dd id="batch-succeeded">${b.succeeded}</dd><dt>skipped</dt><dd>${b.skipped}</dd><dt>failed</dt><dd>${b.failed}</dd>
            <dt>reason</dt><dd>${b.reason || ""}</dd><dt>created</dt><dd>${when(b.createdAt)}</dd><dt>closed</dt><dd>${when(b.closedAt)}</dd></dl>
          ${b.state === "RUNNING" && ACTIONS && !READ_ONLY ? html`<p><button class="danger" id="batch-cancel">Cancel batch…</button></p>` : ""}</section>
        <section class="card"><h2>Filter</h2>${json(b.filter)}
          <p class="small"><a href="${link("runs", { type: b.filter.type, status: (b.filter.status || [])[0], q: b.filter.query, prefix: b.filter.workflowIdPrefix, from: b.filter.startedFrom, to: b.filter.startedTo })}">the runs this filter matches now</a></p>
          ${b.signal ? html`<h3>Signal payload</h3>${json(b.signal.args)}` : ""}</section></div>
        ${b.recentFailures.length ? html`<section class="card"><h2>Recent failures</h2><table><tbody>${b.recentFailures.map((f) => html`<tr><td><a href="${runLink(f.workflowId)}">${f.workflowId}</a></td><td class="error small">${f.message}</td></tr>`)}</tbody></table></section>` : ""}`);
      const cancel = $("#batch-cancel");
      if (cancel) {
        cancel.onclick = async () => {
          if (!await confirmDialog({ title: `Cancel batch ${batchId}?`, body: "Runs it already reached stay as they are.", confirm: "Cancel batch", danger: true })) return;
          try { await call(`/batches/${enc(batchId)}/cancel`, { method: "POST" }); toast("batch canceled"); load(); } catch (e) { toast(e.message, true); }
        };
      }
      return b;
    } catch (e) {
      textOf("#batch-error", e.message);
      return null;
    }
  };
  let running = true;
  load().then((b) => { running = !b || b.state === "RUNNING"; });
  // a closed batch does not change: polled only while it runs
  return poll(async () => {
    if (running) {
      const b = await load();
      running = !b || b.state === "RUNNING";
    }
  }, REFRESH_MS);
}
