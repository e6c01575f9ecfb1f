// The dashboard's shell: a router on the URL's hash, so that every view (with its filter and the
// run it opens) is a link that can be shared or bookmarked.
import { ACTIONS, READ_ONLY } from "./api.js";
import { $$, html, mount, route } from "./ui.js";
import { renderOverview } from "./overview.js";
import { renderRuns } from "./runs.js";
import { renderRun } from "./run.js";
import { renderSchedules } from "./schedules.js";
import { renderBatches } from "./batches.js";

const view = document.getElementById("view");
let dispose = null;

function show() {
  if (dispose) {
    try { dispose(); } catch { /* the old view is gone anyway */ }
  }
  dispose = null;
  const { path, params } = route();
  const section = path[0] || "overview";
  $$("header.top nav a").forEach((a) => a.classList.toggle("active", a.dataset.nav === section));
  const views = {
    overview: () => renderOverview(view, params),
    runs: () => (params.get("open") ? renderRun(view, params) : renderRuns(view, params)),
    schedules: () => renderSchedules(view, params),
    batches: () => renderBatches(view, params),
  };
  const render = views[section];
  if (!render) {
    mount(view, html`<section class="card"><p>No such page. <a href="#/">Back to the overview</a>.</p></section>`);
    return;
  }
  try {
    dispose = render() || null;
  } catch (e) {
    mount(view, html`<section class="card error">${e.message}</section>`);
  }
}

mount(document.getElementById("mode"), READ_ONLY ? html`<b>read-only</b>`
  : ACTIONS ? html`operations allowed` : html`<b>view only</b> <span title="Set durable.workflow.web.operations-enabled or required-role">(operations off for you)</span>`);
window.addEventListener("hashchange", show);
show();
