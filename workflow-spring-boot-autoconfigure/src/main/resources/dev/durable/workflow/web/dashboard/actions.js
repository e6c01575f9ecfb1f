// A run's actions: query (a read), and for a caller allowed the operations signal, update, cancel,
// terminate and reset to a chosen workflow task. Each asks first and shows what the server said.
import { ACTIONS, READ_ONLY, call, enc, query } from "./api.js";
import { $, confirmDialog, html, json, mount, parseJson, toast } from "./ui.js";

export function renderActions(container, run, history, type, done) {
  const open = run.status === "RUNNING";
  const queries = type ? type.queries : [];
  const signals = type ? [...type.signals, ...type.receives.map((r) => r.name)] : [];
  const updates = type ? type.updates : [];
  const tasks = resetPoints(history);
  const allowed = ACTIONS && !READ_ONLY;
  mount(container, html`<h2>Actions</h2><div class="actions">
    <form class="action" id="query-form"><h4>Query</h4>
      ${nameInput("query-name", queries, "query name")}
      <textarea id="query-arg" placeholder="argument (JSON), optional"></textarea><div class="small muted" id="query-hint"></div>
      <div><button id="query-go">Run query</button></div></form>
    ${allowed && open ? html`
    <form class="action" id="signal-form"><h4>Signal</h4>
      ${nameInput("signal-name", signals, "signal name")}
      <textarea id="signal-payload" placeholder="payload (JSON), optional"></textarea><div class="small muted" id="signal-hint"></div>
      <div><button id="signal-go">Send signal</button></div></form>
    <form class="action" id="update-form"><h4>Update</h4>
      ${nameInput("update-name", updates, "update name")}
      <textarea id="update-arg" placeholder="argument (JSON), optional"></textarea><div class="small muted" id="update-hint"></div>
      <div><button id="update-go">Send update</button></div></form>
    <div class="action"><h4>${run.pausedAt ? "Unpause" : "Pause"}</h4>
      <p class="small muted">${run.pausedAt ? "The run takes up what arrived while it was paused and starts the activity attempts the pause held back."
        : "The run takes no workflow task and starts no activity attempt until unpaused; signals and updates wait, queries are answered."}</p>
      <div class="row">${run.pausedAt ? html`<button class="plain" id="unpause-go">Unpause</button>` : html`<button class="plain" id="pause-go">Pause…</button>`}</div></div>
    <div class="action"><h4>Stop the run</h4>
      <p class="small muted">Cancel asks the workflow to stop (its code runs its cleanup); terminate closes it at once, no workflow code runs.</p>
      <div class="row"><button class="plain" id="cancel-go">Cancel…</button><button class="danger" id="terminate-go">Terminate…</button></div></div>` : ""}
    ${allowed && tasks.length ? html`
    <form class="action" id="reset-form"><h4>Reset</h4>
      <p class="small muted">A new run of this workflow id replays the history up to the chosen workflow task and runs it, and what follows, again with the current code.${open ? " This run is terminated." : ""}</p>
      <select id="reset-event">${tasks.map((t) => html`<option value="${t.eventId}">${t.label}</option>`)}</select>
      <div><button class="plain" id="reset-go">Reset…</button></div></form>` : ""}
    ${!allowed ? html`<div class="action muted small" id="actions-off">${READ_ONLY ? "The API is read-only here (durable.workflow.web.read-only)."
      : "Signal, update, pause, cancel, terminate and reset are off for you here: they need durable.workflow.web.operations-enabled, or the role durable.workflow.web.required-role names."}</div>` : ""}
  </div>`);

  for (const [kind, field] of [["query", "query-arg"], ["signal", "signal-payload"], ["update", "update-arg"]]) {
    const input = $(`#${kind}-name`, container);
    if (input) {
      const show = () => hint(container, type, kind, input.value.trim(), field);
      input.addEventListener("input", show);
      show();
    }
  }

  const path = `/workflows/${enc(run.workflowId)}`;
  const pin = query({ runId: run.runId });
  const act = (form, handler) => {
    const element = $("#" + form, container);
    if (element) {
      element.onsubmit = async (e) => {
        e.preventDefault();
        try { await handler(); } catch (error) { failed(form.replace("-form", ""), error); }
      };
    }
  };
  act("query-form", () => attempt("Query " + value("query-name"), async () => {
    const name = required("query-name", "a query name");
    const arg = parseJson($("#query-arg").value, "The argument");
    const { data } = await call(`${path}/queries/${enc(name)}${pin}`, { method: "POST", body: JSON.stringify(arg) });
    return { text: `query ${name} answered`, value: data };
  }, false));
  act("signal-form", async () => {
    const name = required("signal-name", "a signal name");
    const payload = parseJson($("#signal-payload").value, "The payload");
    if (!await confirmDialog({ title: `Send signal ${name}?`, body: html`to <b>${run.workflowId}</b>${json(payload)}`, confirm: "Send signal" })) return;
    await attempt("Signal " + name, async () => {
      await call(`${path}/signals/${enc(name)}`, { method: "POST", body: JSON.stringify(payload) });
      return { text: `signal ${name} delivered` };
    });
  });
  act("update-form", async () => {
    const name = required("update-name", "an update name");
    const arg = parseJson($("#update-arg").value, "The argument");
    if (!await confirmDialog({ title: `Send update ${name}?`, body: html`to <b>${run.workflowId}</b>${json(arg)}`, confirm: "Send update" })) return;
    await attempt("Update " + name, async () => {
      const { status, data } = await call(`${path}/updates/${enc(name)}`, { method: "POST", body: JSON.stringify(arg) });
      return { text: status === 202 ? `update ${name} accepted` : `update ${name} completed`, value: data };
    });
  });
  const stop = (what, danger) => async () => {
    const answer = await confirmDialog({
      title: `${what === "terminate" ? "Terminate" : "Cancel"} ${run.workflowId}?`, danger,
      body: what === "terminate" ? html`<p>The run closes at once as TERMINATED; no workflow code runs, pending activities are abandoned.</p>`
        : html`<p>The workflow is asked to stop; its code decides how (cleanup, compensation).</p>`,
      fields: html`<label class="field">reason<input name="reason" id="stop-reason" class="wide" ${what === "terminate" ? "required" : ""}
        value="${what === "terminate" ? "" : "canceled from the dashboard"}"></label>`,
      confirm: what === "terminate" ? "Terminate" : "Request cancel",
    });
    if (!answer) return;
    await attempt(what, async () => {
      await call(`${path}/${what}${pin}`, { method: "POST", body: JSON.stringify({ reason: answer.reason || null }) });
      return { text: what === "terminate" ? "terminated" : "cancel requested" };
    });
  };
  const pause = $("#pause-go", container);
  if (pause) {
    pause.onclick = async () => {
      const answer = await confirmDialog({
        title: `Pause ${run.workflowId}?`,
        body: html`<p>No workflow task and no new activity attempt until unpaused; attempts under way finish and their outcome waits.</p>`,
        fields: html`<label class="field">reason<input name="reason" id="pause-reason" class="wide" value="paused from the dashboard"></label>`,
        confirm: "Pause",
      });
      if (!answer) return;
      await attempt("pause", async () => {
        await call(`${path}/pause${pin}`, { method: "POST", body: JSON.stringify({ reason: answer.reason || null }) });
        return { text: "paused" };
      });
    };
  }
  const unpause = $("#unpause-go", container);
  if (unpause) {
    unpause.onclick = () => attempt("unpause", async () => {
      await call(`${path}/unpause${pin}`, { method: "POST" });
      return { text: "unpaused" };
    });
  }
  const cancel = $("#cancel-go", container);
  if (cancel) cancel.onclick = stop("cancel", false);
  const terminate = $("#terminate-go", container);
  if (terminate) terminate.onclick = stop("terminate", true);
  act("reset-form", async () => {
    const select = $("#reset-event");
    const eventId = Number(select.value);
    const answer = await confirmDialog({
      title: `Reset ${run.workflowId}?`, danger: true,
      body: html`<p>To <b>${select.options[select.selectedIndex].text}</b>.</p>`,
      fields: html`<label class="field">reason<input name="reason" id="reset-reason" class="wide" value="reset from the dashboard"></label>`,
      confirm: "Reset",
    });
    if (!answer) return;
    await attempt("Reset", async () => {
      const { data } = await call(`${path}/reset${pin}`, { method: "POST", body: JSON.stringify({ eventId, reason: answer.reason || null }) });
      return { text: `reset: new run ${data.runId}`, newRunId: data.runId };
    });
  });

  async function attempt(what, action, refresh = true) {
    const outcome = $("#action-outcome");
    try {
      const result = await action();
      mount(outcome, html`<div class="panel ok" id="action-result"><b>${result.text}</b>${result.value !== undefined ? json(result.value) : ""}</div>`);
      toast(result.text);
      if (refresh) setTimeout(() => done(result.newRunId, result.text), 300);
    } catch (e) {
      failed(what, e);
    }
  }

  function failed(what, e) {
    mount($("#action-outcome"), html`<div class="panel bad" id="action-result"><b>${what} failed</b><div>${e.message}</div></div>`);
    toast(`${what} failed: ${e.message}`, true);
  }
}

/** What a handler takes, from the type's payload descriptions: its Java type and a JSON skeleton. */
function hint(container, type, kind, name, field) {
  const element = $(`#${kind}-hint`, container);
  const payload = type && (type.payloads || []).find((p) => p.kind === kind && p.name === name);
  const textarea = $("#" + field, container);
  if (!payload) {
    element.textContent = "";
    return;
  }
  const example = payload.example === null || payload.example === undefined ? "" : JSON.stringify(payload.example);
  mount(element, payload.payloadType === "none" ? html`takes no payload`
    : html`takes <code>${payload.payloadType}</code>${example ? html` · e.g. <code>${example}</code>` : ""}`);
  textarea.placeholder = payload.payloadType === "none" ? "no payload" : example ? "e.g. " + example : "payload (JSON)";
}

function nameInput(id, names, placeholder) {
  return html`<input id="${id}" list="${id}-names" placeholder="${placeholder}" value="${names.length === 1 ? names[0] : ""}" autocomplete="off">
    <datalist id="${id}-names">${names.map((n) => html`<option value="${n}">`)}</datalist>`;
}

const value = (id) => $("#" + id).value.trim();

function required(id, what) {
  const text = value(id);
  if (!text) throw new Error(`Name ${what}`);
  return text;
}

/** One reset point per workflow task: the first event it wrote (terminate and timeouts are not tasks). */
export function resetPoints(history) {
  const points = [];
  const seen = new Set();
  for (const e of history) {
    if (e.type === "WORKFLOW_TERMINATED" || e.type === "WORKFLOW_TIMED_OUT" || seen.has(e.workflowTask)) continue;
    seen.add(e.workflowTask);
    const types = history.filter((x) => x.workflowTask === e.workflowTask).map((x) => x.type.toLowerCase().replaceAll("_", " "));
    points.push({ eventId: e.eventId, label: `workflow task ${e.workflowTask} (event ${e.eventId}): ${types.slice(0, 3).join(", ")}${types.length > 3 ? "…" : ""}` });
  }
  return points;
}
