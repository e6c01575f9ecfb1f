// The builds card of the overview: where new runs go and each build's drain status; for a caller
// allowed the operations, making a build current, ramping one, and moving a build's pinned runs to
// the build of the node that serves this page (each run only after its history replays there).
import { ACTIONS, READ_ONLY, call, enc, query } from "./api.js";
import { $, confirmDialog, html, relative, toast, when } from "./ui.js";

const allowed = () => ACTIONS && !READ_ONLY;

/** The card's content, from the overview's routing, builds and this node's build. */
export function buildsCard(o) {
  const r = o.routing;
  if (!o.builds.length) {
    return html`<p class="muted" id="builds-none">No build: the nodes have no build id (durable.workflow.node.build-id),
      so every node takes every run.</p>`;
  }
  return html`<p class="small" id="builds-routing">new runs go to <b>${r.currentBuild ?? "no build"}</b>
      ${r.chosen ? "(chosen)" : "(the newest build with a live node)"}${r.rampingBuild
        ? html`, and <b>${r.rampingPercent}%</b> of them to <b>${r.rampingBuild}</b>` : ""}
      ${allowed() && r.chosen ? html` <button class="plain small" id="build-newest">back to the newest</button>` : ""}
      ${allowed() && r.rampingBuild ? html` <button class="plain small" id="build-stop-ramp">stop ramping</button>` : ""}</p>
    <div class="table-wrap"><table id="builds"><thead><tr><th>build</th><th>state</th><th class="num">live nodes</th>
      <th class="num">pinned runs</th><th class="num">stranded</th><th>last task</th><th></th></tr></thead><tbody>
    ${o.builds.map((b) => html`<tr data-build="${b.buildId}"><td class="mono">${b.buildId}${b.buildId === o.buildId ? html` <span class="muted small">(this node)</span>` : ""}</td>
      <td><span class="status ${state(b)}">${b.state}${b.state === "RAMPING" ? ` ${b.rampingPercent}%` : ""}</span></td>
      <td class="num">${b.liveNodes}</td><td class="num">${b.openPinnedRuns}</td>
      <td class="num">${b.strandedRuns ? html`<b class="error">${b.strandedRuns}</b>` : html`<span class="muted">0</span>`}
        ${b.refusedMoves ? html`<div class="small error">${b.refusedMoves} refused a move</div>` : ""}</td>
      <td title="${when(b.lastTaskAt)}">${b.lastTaskAt ? relative(b.lastTaskAt) : ""}</td>
      <td class="small">${allowed() ? buttons(b, o) : ""}</td></tr>`)}
    </tbody></table></div>`;
}

function state(b) {
  return { CURRENT: "COMPLETED", RAMPING: "RUNNING", DRAINING: "PAUSED", DRAINED: "CANCELED" }[b.state] || "";
}

function buttons(b, o) {
  return html`${b.state !== "CURRENT" ? html`<button class="plain small" data-action="current">make current</button>
      <button class="plain small" data-action="ramp">ramp…</button>` : ""}
    ${b.openPinnedRuns && o.buildId && b.buildId !== o.buildId
      ? html`<button class="plain small" data-action="move">move runs to ${o.buildId}…</button>` : ""}`;
}

/** Wires the card's buttons; {@code refresh} reloads the overview after an action. */
export function wireBuilds(container, o, refresh) {
  const act = async (what, request) => {
    try {
      const answer = await request();
      toast(what(answer));
      refresh();
    } catch (e) {
      toast(e.message, true);
    }
  };
  const newest = $("#build-newest", container);
  if (newest) newest.onclick = () => act(() => "New runs go to the newest build with a live node",
    () => call("/builds/current", { method: "PUT" }));
  const stop = $("#build-stop-ramp", container);
  if (stop) stop.onclick = () => act(() => "Ramping stopped", () => call("/builds/ramping", { method: "PUT" }));
  container.querySelectorAll("#builds button[data-action]").forEach((button) => {
    const build = button.closest("tr").dataset.build;
    button.onclick = async () => {
      if (button.dataset.action === "current") {
        await act(() => `New runs go to ${build}`, () => call("/builds/current" + query({ buildId: build }), { method: "PUT" }));
      } else if (button.dataset.action === "ramp") {
        const answer = await confirmDialog({
          title: `Ramp ${build}?`,
          body: html`<p>The build takes this share of new runs, chosen by workflow id; the current build the rest.</p>`,
          fields: html`<label class="field">percent<input name="percent" id="ramp-percent" type="number" min="0" max="100" value="10"></label>`,
          confirm: "Ramp",
        });
        if (!answer) return;
        await act(() => `${build} takes ${answer.percent}% of new runs`,
          () => call("/builds/ramping" + query({ buildId: build, percent: answer.percent }), { method: "PUT" }));
      } else {
        const answer = await confirmDialog({
          title: `Move the runs pinned to ${build} to ${o.buildId}?`,
          body: html`<p>Each run's history is replayed on this node's code (build ${o.buildId}) first: a run that does not
            replay stays on ${build}, and its page says why.</p>`,
          confirm: "Move",
        });
        if (!answer) return;
        await act((r) => `${r.data.moved.length} moved, ${r.data.refused.length} refused (they do not replay on ${o.buildId})`,
          () => call(`/builds/${enc(build)}/move` + query({ toBuild: o.buildId, limit: 1000 }), { method: "POST" }));
      }
    };
  });
}
