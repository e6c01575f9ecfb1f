// Small helpers to render HTML safely and format what the API answers.

class Raw {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

/** Marks trusted HTML (built by html``) so that it is not escaped again. */
export const raw = (text) => new Raw(String(text));

export const esc = (value) => String(value ?? "").replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c]));

function render(value) {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return esc(value);
}

/** A template tag that escapes every interpolated value unless it is raw or html itself. */
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => { out += render(value) + strings[i + 1]; });
  return new Raw(out);
}

/** Renders into an element; a view left meanwhile (its elements gone) is skipped. */
export function mount(element, content) {
  if (!element) return null;
  element.innerHTML = render(content);
  return element;
}

/** Sets an element's text, unless the view it belongs to was left meanwhile. */
export function textOf(selector, text) {
  const element = document.querySelector(selector);
  if (element) element.textContent = text;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

export const when = (t) => (t ? new Date(t).toLocaleString() : "");
export const time = (t) => (t ? new Date(t).toLocaleTimeString() : "");

/** A duration for people: 350 ms, 4.2 s, 3 min 12 s, 2 h 5 min, 3 d 4 h. */
export function duration(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "";
  const negative = ms < 0;
  ms = Math.abs(ms);
  let text;
  if (ms < 1000) text = Math.round(ms) + " ms";
  else if (ms < 60_000) text = (ms / 1000).toFixed(ms < 10_000 ? 1 : 0) + " s";
  else if (ms < 3_600_000) text = Math.floor(ms / 60_000) + " min " + Math.floor(ms % 60_000 / 1000) + " s";
  else if (ms < 86_400_000) text = Math.floor(ms / 3_600_000) + " h " + Math.floor(ms % 3_600_000 / 60_000) + " min";
  else text = Math.floor(ms / 86_400_000) + " d " + Math.floor(ms % 86_400_000 / 3_600_000) + " h";
  return negative ? "-" + text : text;
}

export const between = (from, to) => (from && to ? new Date(to) - new Date(from) : null);

/** "in 3 min" or "5 s ago" from now. */
export function relative(t) {
  if (!t) return "";
  const ms = new Date(t) - Date.now();
  return ms >= 0 ? "in " + duration(ms) : duration(-ms) + " ago";
}

export const status = (s) => html`<span class="status ${s}">${s}</span>`;

/** JSON for people, in a pre block. */
export function json(value, cls = "") {
  return html`<pre class="${cls}">${value === undefined ? "" : JSON.stringify(value, null, 2)}</pre>`;
}

/** A one-line preview of a value. */
export function preview(value, max = 80) {
  if (value === undefined) return "";
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value);
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/**
 * A failure as the engine records it ({kind, type, message, stackTrace, cause, ...}): its
 * message, and each stack trace collapsed, causes after it.
 */
export function failure(f) {
  if (!f) return "";
  if (typeof f === "string") return html`<div class="failure"><b>${f}</b></div>`;
  const chain = [];
  for (let current = f; current; current = current.cause) chain.push(current);
  return chain.map((c, i) => html`<div class="failure">
    <div>${i > 0 ? html`<span class="muted">caused by </span>` : ""}<b>${c.type || c.kind || "failure"}</b>${c.message ? ": " : ""}${c.message}
      ${c.nonRetryable ? html`<span class="chip">non-retryable</span>` : ""}
      ${c.activityType ? html`<span class="chip">activity ${c.activityType} attempt ${c.attempt}</span>` : ""}</div>
    ${c.stackTrace ? html`<details class="stack"><summary>stack trace (${c.stackTrace.split("\n").filter(Boolean).length} lines)</summary>
      <pre>${c.stackTrace}</pre></details>` : ""}
    ${c.details !== undefined && c.details !== null ? html`<details><summary>details</summary>${json(c.details)}</details>` : ""}
  </div>`);
}

/** A key/value table of a map (memo, search attributes); empty maps say so. */
export function props(map, empty = "none") {
  const entries = Object.entries(map || {});
  if (!entries.length) return html`<span class="muted">${empty}</span>`;
  return html`<dl class="props">${entries.map(([k, v]) => html`<dt>${k}</dt><dd class="mono">${typeof v === "string" ? v : JSON.stringify(v)}</dd>`)}</dl>`;
}

export function toast(message, bad = false) {
  const element = document.createElement("div");
  element.className = "toast" + (bad ? " bad" : "");
  element.textContent = message;
  document.getElementById("toasts").append(element);
  setTimeout(() => element.remove(), bad ? 9000 : 4500);
}

/**
 * Asks before an action: a modal dialog with a text, optional fields and a confirm button.
 * Resolves to the fields' values (an object by name) or null when dismissed.
 */
export function confirmDialog({ title, body = "", fields = "", confirm = "Confirm", danger = false }) {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.id = "confirm-dialog";
    mount(dialog, html`<form method="dialog"><h3>${title}</h3><div>${body}</div><div class="stack">${fields}</div>
      <div class="buttons"><button type="button" class="plain" value="cancel" id="dialog-cancel">Cancel</button>
      <button type="submit" id="dialog-confirm" class="${danger ? "danger" : ""}">${confirm}</button></div></form>`);
    document.body.append(dialog);
    const form = dialog.querySelector("form");
    let result = null;
    form.addEventListener("submit", () => {
      result = Object.fromEntries(new FormData(form).entries());
    });
    dialog.querySelector("#dialog-cancel").onclick = () => dialog.close();
    dialog.addEventListener("close", () => { dialog.remove(); resolve(result); });
    dialog.showModal();
  });
}

/** Parses a JSON text field; blank is null. Throws a readable error. */
export function parseJson(text, what) {
  if (!text || !text.trim()) return null;
  try { return JSON.parse(text); } catch (e) { throw new Error(`${what} is not JSON: ${e.message}`); }
}

/** The value of a datetime-local input as an ISO instant, or "". */
export const isoOf = (local) => (local ? new Date(local).toISOString() : "");
/** An ISO instant as a datetime-local input value, or "". */
export function localOf(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The route of the hash: "#/runs?status=RUNNING&open=order-1" is ["runs"] with its parameters. */
export function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, search = ""] = hash.split("?");
  return { path: path.split("/").filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(search) };
}

/** A hash link to a route with parameters (empty ones left out). */
export function link(path, params = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, value);
  }
  const text = search.toString();
  return "#/" + path + (text ? "?" + text : "");
}

/** A link to one run (the latest of its workflow id when no run id is given). */
export const runLink = (workflowId, runId) => link("runs", { open: workflowId, run: runId });

/** Calls a refresh every few milliseconds while the tab is visible; answers the stop function. */
export function poll(refresh, ms) {
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, ms);
  return () => clearInterval(timer);
}
