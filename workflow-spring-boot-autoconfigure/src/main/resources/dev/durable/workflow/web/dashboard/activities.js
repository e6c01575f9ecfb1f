// A run's pending activities: the table of the run page, with a PAUSED badge, and for a caller
// allowed the operations Pause, Unpause, Reset and Options on each activity of an open run. Each asks
// first and shows what the server said.
import { ACTIONS, READ_ONLY, call, enc, query } from "./api.js";
import { $$, confirmDialog, html, relative, toast, when } from "./ui.js";

// SCHEDULED: waits for its attempt to start (a claim on its task queue, or its retry time);
// STARTED: an attempt runs; AWAITING_COMPLETION: the completion client decides the attempt
const ACTIVITY_STATES = { SCHEDULED: "scheduled", STARTED: "started", AWAITING_COMPLETION: "awaiting completion" };

/** The table of the pending activities; with the operations when the caller may run them. */
export function pendingActivities(run) {
  const operable = ACTIONS && !READ_ONLY && run.status === "RUNNING";
  return html`<div class="table-wrap"><table id="pending-table"><thead><tr><th class="num">#</th><th>activity</th><th>state</th><th class="num">attempt</th><th>scheduled</th><th>next attempt</th><th>last failure</th>${operable ? html`<th></th>` : ""}</tr></thead><tbody>
    ${run.pendingActivities.map((a) => html`<tr data-activity="${a.activityId}"><td class="num">${a.activityId}</td><td><b>${a.activityType}</b>${a.taskQueue ? html` <span class="muted small">on ${a.taskQueue}</span>` : ""}</td>
      <td class="activity-state" title="${a.lastHeartbeatTime ? "last heartbeat " + when(a.lastHeartbeatTime) : ""}">${ACTIVITY_STATES[a.state] || a.state || ""}${a.pausedTime
        ? html` <span class="status PAUSED activity-paused" title="paused ${when(a.pausedTime)}">PAUSED</span><div class="small muted pause-reason">${a.pauseReason || ""}</div>` : ""}</td>
      <td class="num attempt">${a.attempt}</td>
      <td title="${when(a.scheduledTime)}">${relative(a.scheduledTime)}</td><td title="${when(a.nextAttemptTime)}">${a.pausedTime ? html`<span class="muted">when unpaused</span>` : relative(a.nextAttemptTime)}</td>
      <td class="error small last-failure">${a.lastFailure || ""}</td>
      ${operable ? html`<td class="row activity-actions">${a.pausedTime ? html`<button class="plain small activity-unpause">Unpause</button>` : html`<button class="plain small activity-pause">Pause…</button>`}<button class="plain small activity-reset">Reset…</button><button class="plain small activity-options">Options…</button></td>` : ""}</tr>`)}
  </tbody></table></div>`;
}

/** Wires the buttons of {@link pendingActivities}; {@code done} refreshes the page after one. */
export function wireActivityActions(container, run, done) {
  const base = `/workflows/${enc(run.workflowId)}/activities/`;
  const pin = query({ runId: run.runId });
  const act = async (what, path, body) => {
    try {
      await call(path, { method: "POST", body: JSON.stringify(body ?? {}) });
      toast(what);
      setTimeout(done, 300);
    } catch (e) {
      toast(`${what} failed: ${e.message}`, true);
    }
  };
  for (const row of $$("#pending-table tr[data-activity]", container)) {
    const id = row.dataset.activity;
    const activity = run.pendingActivities.find((a) => String(a.activityId) === id);
    const name = `${activity.activityType} #${id}`;
    const pause = row.querySelector(".activity-pause");
    if (pause) {
      pause.onclick = async () => {
        const answer = await confirmDialog({
          title: `Pause activity ${name}?`,
          body: html`<p>No new attempt of it starts until it is unpaused or reset; an attempt under way runs on and sees the pause at its next heartbeat.</p>`,
          fields: html`<label class="field">reason<input name="reason" id="activity-pause-reason" class="wide" value="paused from the dashboard"></label>`,
          confirm: "Pause activity",
        });
        if (answer) await act(`activity ${name} paused`, `${base}${id}/pause${pin}`, { reason: answer.reason || null });
      };
    }
    const unpause = row.querySelector(".activity-unpause");
    if (unpause) {
      unpause.onclick = () => act(`activity ${name} unpaused`, `${base}${id}/unpause${pin}`);
    }
    const reset = row.querySelector(".activity-reset");
    if (reset) {
      reset.onclick = async () => {
        const answer = await confirmDialog({
          title: `Reset activity ${name}?`,
          body: html`<p>Its next attempt is attempt 1 and starts at once (after the attempt under way, if that fails); a pause is lifted.</p>`,
          fields: html`<label class="field"><input type="checkbox" name="keep" id="activity-reset-keep" checked> keep the heartbeat details</label>`,
          confirm: "Reset activity",
        });
        if (answer) await act(`activity ${name} reset`, `${base}${id}/reset${pin}`, { keepHeartbeatDetails: answer.keep === "on" || answer.keep === true });
      };
    }
    const options = row.querySelector(".activity-options");
    if (options) {
      options.onclick = async () => {
        const current = activity.options || { retryPolicy: {} };
        const answer = await confirmDialog({
          title: `Options of activity ${name}`,
          body: html`<p>For its attempts to come; a field left blank keeps its value. Durations are ISO-8601 (PT30S, PT5M).</p>`,
          fields: html`<label class="field">maximum attempts (0: no limit)<input name="maximumAttempts" id="activity-max-attempts" type="number" min="0" value="${current.retryPolicy.maximumAttempts ?? ""}"></label>
            <label class="field">start-to-close timeout<input name="startToCloseTimeout" id="activity-start-to-close" placeholder="${current.startToCloseTimeout || "none"}"></label>
            <label class="field">heartbeat timeout<input name="heartbeatTimeout" id="activity-heartbeat-timeout" placeholder="${current.heartbeatTimeout || "none"}"></label>`,
          confirm: "Change options",
        });
        if (!answer) return;
        const body = {};
        if (answer.startToCloseTimeout) body.startToCloseTimeout = answer.startToCloseTimeout.trim();
        if (answer.heartbeatTimeout) body.heartbeatTimeout = answer.heartbeatTimeout.trim();
        if (answer.maximumAttempts !== "" && Number(answer.maximumAttempts) !== current.retryPolicy.maximumAttempts) {
          body.retryPolicy = { maximumAttempts: Number(answer.maximumAttempts) };
        }
        if (!Object.keys(body).length) {
          toast("nothing to change", true);
          return;
        }
        await act(`options of activity ${name} changed`, `${base}${id}/options${pin}`, body);
      };
    }
  }
}
