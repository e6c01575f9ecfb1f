// The run list: filters, chosen search-attribute columns and paging, all named by the URL.
import { ACTIONS, get, query, workflowTypes } from "./api.js";
import { $, between, duration, html, isoOf, link, localOf, mount, poll, preview, status, when, textOf } from "./ui.js";

const STATUSES = ["RUNNING", "COMPLETED", "FAILED", "CANCELED", "TERMINATED", "TIMED_OUT", "CONTINUED_AS_NEW"];
/** The URL parameters that make the filter (the rest name the page, the columns or the open run). */
export const FILTER_KEYS = ["type", "status", "from", "to", "prefix", "q", "paused"];

/** The list request's parameters for a route's filter. */
export function listParams(params) {
  return {
    type: params.get("type") || "",
    status: params.get("status") || "",
    startedFrom: params.get("from") || "",
    startedTo: params.get("to") || "",
    workflowIdPrefix: params.get("prefix") || "",
    query: params.get("q") || "",
    paused: params.get("paused") || "",
  };
}

/** The route parameters of the list view, without the open run. */
export function listRoute(params) {
  const kept = {};
  for (const key of [...FILTER_KEYS, "cols", "size"]) if (params.get(key)) kept[key] = params.get(key);
  return kept;
}

export function renderRuns(view, params) {
  const columns = (params.get("cols") || "").split(",").map((c) => c.trim()).filter(Boolean);
  const size = params.get("size") || "25";
  const pages = (params.get("pages") || "").split(",").filter(Boolean); // tokens of the pages before this one
  const token = params.get("page") || "";
  mount(view, html`<h1>Runs</h1>
    <section class="card">
      <form class="filters" id="run-filters">
        <label class="field">type<select name="type" id="f-type"><option value="">any type</option></select></label>
        <label class="field">status<select name="status" id="f-status"><option value="">any status</option>
          ${STATUSES.map((s) => html`<option ${params.get("status") === s ? "selected" : ""}>${s}</option>`)}</select></label>
        <label class="field">started from<input type="datetime-local" name="from" id="f-from" value="${localOf(params.get("from"))}"></label>
        <label class="field">started before<input type="datetime-local" name="to" id="f-to" value="${localOf(params.get("to"))}"></label>
        <label class="field">paused<select name="paused" id="f-paused"><option value="">paused or not</option>
          ${["true", "false"].map((p) => html`<option value="${p}" ${params.get("paused") === p ? "selected" : ""}>${p === "true" ? "paused only" : "not paused"}</option>`)}</select></label>
        <label class="field">workflow id prefix<input name="prefix" id="f-prefix" size="16" value="${params.get("prefix") || ""}"></label>
        <label class="field">search attributes<input name="q" id="f-query" class="wide" placeholder="customer = 'c-42' AND amount >= 100" value="${params.get("q") || ""}"></label>
        <label class="field">columns<input name="cols" id="f-cols" size="16" placeholder="customer, amount" value="${columns.join(", ")}"></label>
        <label class="field">per page<select name="size" id="f-size">${["10", "25", "50", "100"].map((n) => html`<option ${n === size ? "selected" : ""}>${n}</option>`)}</select></label>
        <button id="f-search">Search</button>
        <a href="#/runs" class="small">clear</a>
        <span class="spacer"></span>
        <label class="small row"><input type="checkbox" id="f-live"> refresh every 5 s</label>
        ${ACTIONS ? html`<a class="small" id="batch-from-filter" href="${link("batches", { new: "1", ...listRoute(params) })}">batch operation on these runs…</a>` : ""}
      </form>
      <div id="list-error" class="error"></div>
      <div class="table-wrap"><table id="runs-table"><thead><tr><th>workflow id</th><th>type</th><th>status</th><th>started</th><th>closed</th><th class="num">duration</th>
        ${columns.length ? columns.map((c) => html`<th>${c}</th>`) : html`<th>search attributes</th>`}</tr></thead><tbody id="runs"></tbody></table></div>
      <div class="pager"><a id="prev-page" hidden>← previous</a><span class="muted small" id="page-info"></span><a id="next-page" hidden>next →</a></div>
    </section>`);
  workflowTypes().then((types) => {
    const select = $("#f-type");
    for (const t of types) select.insertAdjacentHTML("beforeend", html`<option ${params.get("type") === t.type ? "selected" : ""}>${t.type}</option>`.text);
  }).catch(() => { /* the list still works without the names */ });
  $("#run-filters").onsubmit = (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const values = Object.fromEntries(form.entries());
    values.from = isoOf(values.from);
    values.to = isoOf(values.to);
    values.cols = (values.cols || "").split(",").map((c) => c.trim()).filter(Boolean).join(",");
    if (values.size === "25") delete values.size;
    const target = link("runs", values);
    if (location.hash === target) load(); else location.hash = target;
  };
  const load = async () => {
    try {
      const page = await get("/workflows" + query({ ...listParams(params), pageSize: size, pageToken: token }));
      if (!$("#runs")) return; // the view was left meanwhile
      textOf("#list-error", "");
      mount($("#runs"), page.executions.length ? page.executions.map((r) => row(r, columns, listRoute(params)))
        : html`<tr><td colspan="${7 + Math.max(columns.length, 1)}" class="muted">No run matches.</td></tr>`);
      const base = { ...listRoute(params) };
      const next = $("#next-page");
      next.hidden = !page.nextPageToken;
      if (page.nextPageToken) next.href = link("runs", { ...base, page: page.nextPageToken, pages: [...pages, token || "-"].join(",") });
      const prev = $("#prev-page");
      prev.hidden = pages.length === 0;
      if (pages.length) {
        const before = pages[pages.length - 1];
        prev.href = link("runs", { ...base, page: before === "-" ? "" : before, pages: pages.slice(0, -1).join(",") });
      }
      textOf("#page-info", `page ${pages.length + 1} · ${page.executions.length} run(s)`);
    } catch (e) {
      textOf("#list-error", e.message);
      mount($("#runs"), "");
    }
  };
  load();
  let stop = null;
  $("#f-live").onchange = (e) => {
    if (stop) stop();
    stop = e.target.checked ? poll(load, 5000) : null;
  };
  return () => stop && stop();
}

function row(r, columns, base) {
  const attributes = r.searchAttributes || {};
  const closed = r.closeTime ? between(r.startTime, r.closeTime) : null;
  return html`<tr class="run" data-id="${r.workflowId}" data-run="${r.runId}">
    <td><a href="${link("runs", { ...base, open: r.workflowId, run: r.runId })}">${r.workflowId}</a>${r.summary ? html`<div class="small muted run-summary">${r.summary}</div>` : ""}</td><td>${r.workflowType}</td><td>${status(r.status)}${r.paused ? html` <span class="status PAUSED">PAUSED</span>` : ""}${r.taskFailing ? html` <span class="status STUCK">TASK FAILING</span>` : ""}</td>
    <td title="${r.startTime}">${when(r.startTime)}</td><td title="${r.closeTime || ""}">${when(r.closeTime)}</td>
    <td class="num">${closed !== null ? duration(closed) : html`<span class="muted">${duration(Date.now() - new Date(r.startTime))}</span>`}</td>
    ${columns.length ? columns.map((c) => html`<td class="mono">${attributes[c] === undefined ? "" : typeof attributes[c] === "string" ? attributes[c] : preview(attributes[c], 40)}</td>`)
      : html`<td>${Object.entries(attributes).map(([k, v]) => html`<span class="chip">${k}=${preview(v, 30)}</span>`)}</td>`}
  </tr>`;
}
