// The REST API of the engine, as the dashboard calls it; every call goes through the
// application's security like any other request.
const config = JSON.parse(document.getElementById("durable-config").textContent);

export const BASE = config.basePath;
export const READ_ONLY = config.readOnly;
/** Whether this caller may run operations (signal, cancel, reset, batches...): decided by the server. */
export const ACTIONS = config.actions;

export const enc = encodeURIComponent;

/** A refusal of the API: the problem's status, stable code and message. */
export class ApiError extends Error {
  constructor(status, code, detail) {
    super(code ? `${code}: ${detail}` : detail);
    this.status = status;
    this.code = code;
  }
}

/** Calls the API; answers { status, data } or throws an ApiError. */
export async function call(path, { method = "GET", body, headers = {} } = {}) {
  const init = { method, headers: { Accept: "application/json, application/problem+json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(BASE + path, init);
  } catch (e) {
    throw new ApiError(0, "UNREACHABLE", "The application does not answer: " + e.message);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, data && data.code, detail);
  }
  return { status: response.status, data };
}

export const get = async (path) => (await call(path)).data;
export const post = async (path, body) => (await call(path, { method: "POST", body: body === undefined ? "" : body })).data;

/** The query string of defined, non-empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) value.filter((v) => v !== "" && v != null).forEach((v) => search.append(key, v));
    else if (value !== undefined && value !== null && value !== "") search.set(key, value);
  }
  const text = search.toString();
  return text ? "?" + text : "";
}

let typesPromise = null;
/** The registered workflow types with their handlers (read once per page). */
export function workflowTypes() {
  typesPromise ??= get("/workflow-types").catch((e) => { typesPromise = null; throw e; });
  return typesPromise;
}
