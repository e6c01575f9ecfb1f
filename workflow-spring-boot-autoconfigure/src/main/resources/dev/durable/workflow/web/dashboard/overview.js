// The overview: counts by status and type, the backlog, failing and stuck runs, nodes, queues, builds, topics,
// refreshed every few seconds while the tab is visible.
import { get } from "./api.js";
import { buildsCard, wireBuilds } from "./builds.js";
import { topicsCard } from "./topics.js";
import { $, duration, html, link, mount, poll, relative, runLink, status, time, when, textOf } from "./ui.js";

const REFRESH_MS = 5000;
const STATUSES = ["RUNNING", "COMPLETED", "FAILED", "CANCELED", "TERMINATED", "TIMED_OUT", "CONTINUED_AS_NEW"];

export function renderOverview(view) {
  mount(view, html`<h1>Overview <span class="muted small" id="overview-updated"></span></h1>
    <div id="overview-error" class="error"></div><div id="overview"></div>`);
  const refresh = async () => {
    try {
      const data = await get("/overview");
      mount($("#overview"), overview(data));
      wireBuilds($("#overview"), data, refresh);
      textOf("#overview-error", "");
      textOf("#overview-updated", `updated ${time(new Date())} · refreshes every ${REFRESH_MS / 1000} s`);
    } catch (e) {
      textOf("#overview-error", e.message);
    }
  };
  refresh();
  return poll(refresh, REFRESH_MS);
}

function overview(o) {
  const total = Object.values(o.statusTotals).reduce((a, b) => a + b, 0);
  const count = (s) => o.statusTotals[s] || 0;
  const closedBad = count("FAILED") + count("TERMINATED") + count("TIMED_OUT");
  const alive = o.nodes.filter((n) => n.alive).length;
  const b = o.backlog;
  const stranded = o.builds.reduce((sum, build) => sum + build.strandedRuns, 0);
  return html`
    <div class="tiles" id="tiles">
      ${tile("runs", total, "", link("runs"))}
      ${tile("running", count("RUNNING"), "", link("runs", { status: "RUNNING" }))}
      ${tile("completed", count("COMPLETED"), "ok", link("runs", { status: "COMPLETED" }))}
      ${tile("failed, terminated, timed out", closedBad, closedBad ? "bad" : "", link("runs", { status: "FAILED" }))}
      ${tile("backlog" + (b.runnable ? ` · oldest ${duration(b.oldestWaitingSeconds * 1000)}` : ""), b.runnable, b.runnable > 0 ? "warn" : "")}
      ${tile("failing workflow tasks", b.failing, b.failing ? "bad" : "", "#failing")}
      ${tile("paused", b.paused, b.paused ? "warn" : "", link("runs", { paused: "true" }))}
      ${tile(`stuck (failing > ${b.stuckAfter.replace(/^PT/, "").toLowerCase()})`, b.stuck, b.stuck ? "bad" : "", "#failing")}
      ${tile("nodes alive", `${alive} / ${o.nodes.length}`, alive < o.nodes.length ? "warn" : "")}
      ${stranded ? tile("stranded runs (no node of their build)", stranded, "bad", "#builds-card") : ""}
    </div>
    <div class="grid2">
      <section class="card"><h2>Runs by type and status</h2>${byType(o.runs)}</section>
      <section class="card" id="failing"><h2>Failing workflow tasks</h2>${failing(o.failingRuns)}</section>
      <section class="card"><h2>Nodes</h2>${nodes(o.nodes)}</section>
      <section class="card"><h2>Queues</h2>${queues(o.queues)}</section>
      <section class="card" id="builds-card"><h2>Builds</h2>${buildsCard(o)}</section>
      <section class="card" id="topics-card"><h2>Event topics</h2>${topicsCard(o)}</section>
    </div>`;
}

function tile(label, value, cls, href) {
  const inner = html`<div class="value">${value}</div><div class="label">${label}</div>`;
  return href ? html`<a class="tile ${cls}" href="${href}">${inner}</a>` : html`<div class="tile ${cls}">${inner}</div>`;
}

function byType(runs) {
  const types = Object.keys(runs);
  if (!types.length) return html`<p class="muted">No runs yet.</p>`;
  const used = STATUSES.filter((s) => types.some((t) => runs[t][s]));
  return html`<div class="table-wrap"><table id="runs-by-type"><thead><tr><th>type</th>${used.map((s) => html`<th class="num">${status(s)}</th>`)}</tr></thead><tbody>
    ${types.map((t) => html`<tr><td><a href="${link("runs", { type: t })}">${t}</a></td>
      ${used.map((s) => html`<td class="num">${runs[t][s] ? html`<a href="${link("runs", { type: t, status: s })}">${runs[t][s]}</a>` : html`<span class="muted">0</span>`}</td>`)}</tr>`)}
  </tbody></table></div>`;
}

function failing(runs) {
  if (!runs.length) return html`<p class="muted">No workflow task is failing.</p>`;
  return html`<div class="table-wrap"><table id="failing-runs"><thead><tr><th>workflow id</th><th>type</th><th class="num">attempts</th><th>failing since</th><th>reason</th></tr></thead><tbody>
    ${runs.map((r) => html`<tr><td><a href="${runLink(r.workflowId, r.runId)}">${r.workflowId}</a></td><td>${r.workflowType}</td>
      <td class="num">${r.attempts}</td><td title="${when(r.failingSince)}">${relative(r.failingSince)}</td>
      <td class="error small">${r.reason}</td></tr>`)}
  </tbody></table></div>`;
}

function nodes(list) {
  if (!list.length) return html`<p class="muted">No node is registered.</p>`;
  return html`<div class="table-wrap"><table id="nodes"><thead><tr><th>node</th><th>state</th><th>serves</th><th>started</th><th>last heartbeat</th></tr></thead><tbody>
    ${list.map((n) => html`<tr><td>${n.name}<div class="muted small mono">${n.nodeId}${n.buildId ? " · build " + n.buildId : ""}</div></td>
      <td>${n.alive ? html`<span class="status COMPLETED">ALIVE</span>` : html`<span class="status FAILED">DEAD</span>`}</td>
      <td class="small">${n.servedTypes.length ? n.servedTypes.join(", ") : html`<span class="muted">no workflow types</span>`}
        ${n.taskQueues.length ? html`<div class="muted">task queues: ${n.taskQueues.join(", ")}</div>` : ""}</td>
      <td title="${when(n.startedAt)}">${relative(n.startedAt)}</td><td title="${when(n.lastHeartbeat)}">${relative(n.lastHeartbeat)}</td></tr>`)}
  </tbody></table></div>`;
}

const limits = (l) => [l.concurrency && `${l.concurrency} at once`, l.perNodeConcurrency && `${l.perNodeConcurrency} per node`,
  l.rateLimit && `${l.rateLimit} per ${l.ratePeriod}`, l.partitionConcurrency && `${l.partitionConcurrency} per partition`]
  .filter(Boolean).join(" · ") || "none";

function queues(list) {
  if (!list.length) return html`<p class="muted">No queues (declare one with durable.workflow.queues.&lt;name&gt;.*).</p>`;
  return html`<div class="table-wrap"><table id="queues"><thead><tr><th>queue</th><th>limits</th><th class="num">waiting</th><th class="num">running</th><th>oldest waiting</th></tr></thead><tbody>
    ${list.map((q) => html`<tr><td>${q.name}</td><td class="small">${limits(q.limits)}</td>
      <td class="num"><b>${q.depth}</b> <span class="muted small">${q.waitingWorkflows} wf / ${q.waitingActivities} act</span></td>
      <td class="num"><b>${q.running}</b> <span class="muted small">${q.runningWorkflows} wf / ${q.runningActivities} act</span></td>
      <td title="${when(q.oldestWaitingSince)}">${q.oldestWaitingSince ? duration(Date.now() - new Date(q.oldestWaitingSince)) : ""}</td></tr>`)}
  </tbody></table></div>`;
}
