// The event topics card of the overview: each topic's dispatched events, its rate over the last
// refreshes, the runs waiting for its events and the events not dispatched yet.
import { html, relative, when } from "./ui.js";

/** The last position seen of each topic and when, for the rate between two refreshes. */
const seen = new Map();

/** The card's content, from the overview's topics. */
export function topicsCard(o) {
  if (!o.topics.length) {
    return html`<p class="muted" id="topics-none">No event topic yet: a topic appears once a run waits for its events or
      one of its events is dispatched.</p>`;
  }
  const now = Date.now();
  return html`<div class="table-wrap"><table id="topics"><thead><tr><th>topic</th><th class="num">events</th>
      <th class="num">per second</th><th class="num">waiting runs</th><th class="num">not dispatched</th><th>last event</th></tr></thead><tbody>
    ${o.topics.map((t) => html`<tr data-topic="${t.topic}"><td class="mono">${t.topic}</td><td class="num">${t.lastPosition}</td>
      <td class="num rate">${rate(t, now)}</td><td class="num waiting">${t.waitingRuns}</td>
      <td class="num">${t.undispatchedEvents ? html`<b class="error">${t.undispatchedEvents}</b>` : html`<span class="muted">0</span>`}</td>
      <td title="${when(t.lastEventAt)}">${t.lastEventAt ? relative(t.lastEventAt) : ""}</td></tr>`)}
    </tbody></table></div>`;
}

/** Events per second since the previous refresh ("" at the first). */
function rate(t, now) {
  const before = seen.get(t.topic);
  seen.set(t.topic, { position: t.lastPosition, at: now });
  if (!before || now <= before.at) return "";
  return ((t.lastPosition - before.position) / ((now - before.at) / 1000)).toFixed(1);
}
