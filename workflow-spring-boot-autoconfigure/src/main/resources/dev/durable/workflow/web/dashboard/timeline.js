// A run's history three ways: a timeline that pairs each command with the events that finish it
// (activity scheduled -> completed, timer started -> fired, child started -> closed, update
// accepted -> completed) with durations, a compact event list, and the raw JSON.
import { between, duration, failure, html, json, preview, runLink, when } from "./ui.js";

/** What pairs events: the event that opens a span, its kind and the key of its later events. */
const OPENERS = {
  ACTIVITY_SCHEDULED: ["activity", (e) => "a" + e.attributes.seq],
  TIMER_STARTED: ["timer", (e) => "t" + e.attributes.seq],
  START_CHILD: ["child", (e) => "c" + e.attributes.seq],
  UPDATE_ACCEPTED: ["update", (e) => "u" + e.attributes.updateId],
  SIGNAL_EXTERNAL: ["signal external", (e) => "x" + e.attributes.seq],
  CANCEL_EXTERNAL: ["cancel external", (e) => "x" + e.attributes.seq],
};
const CLOSERS = {
  ACTIVITY_COMPLETED: [(e) => "a" + e.attributes.seq, "completed"],
  ACTIVITY_FAILED: [(e) => "a" + e.attributes.seq, "failed"],
  ACTIVITY_CANCEL_REQUESTED: [(e) => "a" + e.attributes.seq, null],
  TIMER_FIRED: [(e) => "t" + e.attributes.seq, "fired"],
  TIMER_CANCELED: [(e) => "t" + e.attributes.seq, "canceled"],
  CHILD_STARTED: [(e) => "c" + e.attributes.seq, null],
  CHILD_CLOSED: [(e) => "c" + e.attributes.seq, "closed"],
  CHILD_START_FAILED: [(e) => "c" + e.attributes.seq, "failed"],
  UPDATE_COMPLETED: [(e) => "u" + e.attributes.updateId, "completed"],
  EXTERNAL_DELIVERED: [(e) => "x" + e.attributes.seq, "delivered"],
};

/** The spans of a history: paired commands and the events that stand alone. */
export function spans(history) {
  const open = new Map();
  const result = [];
  for (const e of history) {
    const opener = OPENERS[e.type];
    if (opener) {
      const span = { kind: opener[0], label: label(e), start: e.time, end: null, state: "open", events: [e], first: e };
      open.set(opener[1](e), span);
      result.push(span);
      continue;
    }
    const closer = CLOSERS[e.type];
    const span = closer && open.get(closer[0](e));
    if (span) {
      span.events.push(e);
      if (closer[1]) {
        span.end = e.time;
        span.state = e.attributes.failure ? "failed" : closer[1];
      }
      continue;
    }
    result.push({ kind: "event", label: label(e), start: e.time, end: e.time, state: "point", events: [e], first: e });
  }
  return result;
}

function label(e) {
  const a = e.attributes || {};
  switch (e.type) {
    case "ACTIVITY_SCHEDULED": return a.name;
    case "TIMER_STARTED": return "timer #" + a.seq;
    case "START_CHILD": return a.name || "child";
    case "UPDATE_ACCEPTED": return "update " + (a.name || a.updateId);
    case "SIGNAL_RECEIVED": return "signal " + a.name;
    case "SIGNAL_EXTERNAL": return "signal " + (a.name || "") + " to another run";
    default: return e.type.toLowerCase().replaceAll("_", " ");
  }
}

/** A one-line summary of an event's attributes. */
export function summary(e) {
  const a = e.attributes || {};
  const parts = [];
  if (a.seq !== undefined) parts.push("#" + a.seq);
  if (a.name && e.type !== "WORKFLOW_STARTED") parts.push(a.name);
  if (a.arguments) parts.push("(" + a.arguments.map((v) => preview(v, 40)).join(", ") + ")");
  if (a.payload !== undefined) parts.push(preview(a.payload, 90));
  if (a.fireAt) parts.push("fires " + when(a.fireAt));
  if (a.failure) parts.push("✗ " + failureText(a.failure));
  if (a.reason && e.type !== "START_CHILD") parts.push("reason: " + a.reason);
  return parts.join(" ");
}

export function failureText(f) {
  let deepest = f;
  while (deepest.cause) deepest = deepest.cause;
  return (deepest.type ? deepest.type + ": " : "") + (deepest.message || f.message || f.kind || "failure");
}

/** The timeline table, with a bar per span on the run's time axis. */
export function timeline(history, run) {
  if (!history.length) return html`<p class="muted">No events yet: the run's first workflow task has not committed.</p>`;
  const all = spans(history);
  const start = new Date(history[0].time).getTime();
  const closed = run.closeTime ? new Date(run.closeTime).getTime() : null;
  const end = Math.max(closed ?? Date.now(), ...history.map((e) => new Date(e.time).getTime()), start + 1);
  const width = end - start;
  const pct = (t) => Math.max(0, Math.min(100, ((t - start) / width) * 100));
  return html`<div class="table-wrap"><table class="timeline" id="timeline"><thead><tr><th class="num">#</th><th>what</th><th class="num">at</th><th class="num">took</th>
    <th class="bar-cell">${duration(width)} from the first event${closed ? "" : " to now"}</th><th>outcome</th></tr></thead><tbody>
    ${all.map((s, i) => {
      const from = new Date(s.start).getTime();
      const to = s.end ? new Date(s.end).getTime() : end;
      const point = s.state === "point";
      const cls = ["bar", s.kind === "timer" ? "timer" : "", s.kind === "child" ? "child" : "", s.state === "failed" ? "failed" : "",
        !s.end ? "open" : "", point ? "point" : ""].join(" ");
      const style = point ? `left:${pct(from)}%` : `left:${pct(from)}%;width:${Math.max(pct(to) - pct(from), 0.4)}%`;
      return html`<tr class="span link" data-span="${i}" data-kind="${s.kind}" data-state="${s.state}">
        <td class="num muted">${s.first.eventId}</td>
        <td class="what">${s.kind !== "event" ? html`<span class="kind">${s.kind}</span> ` : ""}<b>${s.label}</b></td>
        <td class="num muted">+${duration(from - start)}</td>
        <td class="num">${point ? "" : s.end ? duration(to - from) : html`<span class="muted">${duration(to - from)} so far</span>`}</td>
        <td class="bar-cell"><div class="bar-track"><div class="${cls}" style="${style}"></div></div></td>
        <td class="small">${outcome(s)}</td></tr>
        <tr class="detail" data-detail="${i}" hidden><td></td><td colspan="5">${s.events.map((e) => html`<div class="small"><b>${e.eventId} ${e.type}</b>
          <span class="muted">task ${e.workflowTask} · ${when(e.time)}</span>${e.attributes.failure ? failure(e.attributes.failure) : ""}${json(strip(e.attributes))}</div>`)}</td></tr>`;
    })}
  </tbody></table></div>`;
}

function outcome(s) {
  const last = s.events[s.events.length - 1];
  const a = last.attributes || {};
  if (s.kind === "timer") {
    const fireAt = s.first.attributes.fireAt;
    if (s.state === "open") return html`fires ${when(fireAt)}`;
    return html`${s.state} <span class="muted">(set for ${when(fireAt)})</span>`;
  }
  if (s.kind === "child") {
    const childId = s.first.attributes.updateId;
    const started = s.events.find((e) => e.type === "CHILD_STARTED");
    const target = childId ? html` <a href="${runLink(childId, started && started.attributes.updateId)}">open child</a>` : "";
    if (a.failure) return html`<span class="error">${failureText(a.failure)}</span>${target}`;
    return html`${s.state === "open" ? (started ? "running" : "starting") : preview(a.payload, 60)}${target}`;
  }
  if (s.state === "failed" && a.failure) return html`<span class="error">${failureText(a.failure)}</span>`;
  if (s.state === "open") return html`<span class="muted">${s.kind === "activity" ? "pending" : "open"}</span>`;
  if (s.kind === "event") return summary(s.first);
  return a.payload !== undefined ? preview(a.payload, 60) : s.state;
}

/** The attributes without the stack traces shown above them. */
function strip(attributes) {
  if (!attributes.failure) return attributes;
  const { failure: _, ...rest } = attributes;
  return rest;
}

/** The compact list: one line per event. */
export function compact(history) {
  if (!history.length) return html`<p class="muted">No events yet.</p>`;
  const start = new Date(history[0].time).getTime();
  return html`<div class="table-wrap"><table id="events"><thead><tr><th class="num">#</th><th class="num">task</th><th>time</th><th>event</th><th>details</th></tr></thead><tbody>
    ${history.map((e) => html`<tr><td class="num muted">${e.eventId}</td><td class="num muted">${e.workflowTask}</td>
      <td class="small" title="${when(e.time)}">+${duration(new Date(e.time).getTime() - start)}</td><td><b>${e.type}</b></td>
      <td class="mono small">${summary(e)}</td></tr>`)}
  </tbody></table></div>`;
}

/** The raw history, as the REST endpoint answers it. */
export function rawJson(history) {
  return html`<p class="small"><a id="download-history" download="history.json"
    href="data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(history, null, 2))}">download</a></p>${json(history, "raw")}`;
}

/** The timers of a history, with when they fire or fired. */
export function timers(history) {
  return spans(history).filter((s) => s.kind === "timer");
}

/** The child runs a history started. */
export function children(history) {
  return spans(history).filter((s) => s.kind === "child").map((s) => {
    const started = s.events.find((e) => e.type === "CHILD_STARTED");
    const closed = s.events.find((e) => e.type === "CHILD_CLOSED" || e.type === "CHILD_START_FAILED");
    return { type: s.first.attributes.name, workflowId: s.first.attributes.updateId, runId: started && started.attributes.updateId,
      state: s.state === "open" ? (started ? "running" : "starting") : closed && closed.attributes.failure ? "failed" : "closed",
      result: closed && closed.attributes.payload, failure: closed && closed.attributes.failure, took: s.end ? between(s.start, s.end) : null };
  });
}
