// How a browser client uses the public APIs: a bearer token for the signed-in session, JSON
// requests, Server-Sent Events and NDJSON read with fetch (EventSource cannot send a token).

const body = document.body;

export const signedIn = body.dataset.signedIn === "true";
// Who is signed in ("" for nobody): what this browser keeps is kept per user.
export const user = body.dataset.user || "";
const TOKEN_KEY = `commerce.apiToken:${user}`;

// Links the server writes (confirmUrl, authUrl, download URLs) start with its --base-url; the
// page may be open under another name for the same server (localhost vs 127.0.0.1), where a
// fetch would be cross-origin and the consent page would not see this browser's session.
export function local(url) {
  const base = body.dataset.baseUrl;
  return base && url.startsWith(`${base}/`) ? url.slice(base.length) : url;
}

// A short-lived API token for this browser session (POST /shop/api-token with the CSRF token),
// kept in sessionStorage until shortly before it expires. A guest browser gets its guest cart
// token instead: the cart routes take it, and signing in hands its carts to the account.
export async function token(fresh = false) {
  const kept = JSON.parse(sessionStorage.getItem(TOKEN_KEY) || "null");
  if (!fresh && kept && kept.until > Date.now()) return kept.token;
  const response = await fetch(body.dataset.tokenUrl, {
    method: "POST", credentials: "same-origin",
    headers: { "X-CSRF-Token": body.dataset.csrf } });
  if (!response.ok) { sessionStorage.removeItem(TOKEN_KEY); return null; }
  const answer = await response.json();
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify({
    token: answer.accessToken, until: Date.now() + (answer.expiresIn - 60) * 1000 }));
  return answer.accessToken;
}

async function headers(extra, auth) {
  const all = { Accept: "application/json", ...extra };
  if (auth) {
    const bearer = await token(auth === "fresh");
    if (bearer) all.Authorization = `Bearer ${bearer}`;
  }
  return all;
}

// One API call: {status, ok, data, headers}. A 401 with a kept token retries once with a new one.
export async function api(method, path, payload, extra = {}, auth = true) {
  const init = { method, headers: await headers(extra, auth) };
  if (payload !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(payload);
  }
  let response;
  try {
    response = await fetch(path, init);
    if (response.status === 401 && auth === true && signedIn) {
      init.headers = await headers(extra, "fresh");
      response = await fetch(path, init);
    }
  } catch (error) {
    return { status: 0, ok: false, data: { message: `Could not reach the server (${error.message}).` },
             headers: new Headers() };
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  return { status: response.status, ok: response.ok, data, headers: response.headers };
}

export function problem(result) {
  const data = result.data || {};
  return data.detail || data.message || (data.error && data.error.message) || data.error ||
    `The server answered ${result.status}.`;
}

// Read lines from a streaming fetch response, calling onLine for each complete line.
async function readLines(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, cut).replace(/\r$/, "");
      pending = pending.slice(cut + 1);
      onLine(line);
    }
  }
  if (pending) onLine(pending);
}

// Server-Sent Events over fetch: onEvent({event, id, data}) per event. Resolves when the server
// ends the stream; the caller reconnects with the last id it saw.
export async function readEvents(path, { lastEventId, signal, onEvent }) {
  const extra = { Accept: "text/event-stream" };
  if (lastEventId) extra["Last-Event-ID"] = lastEventId;
  const response = await fetch(path, { headers: await headers(extra, true), signal });
  if (!response.ok) return response.status;
  let event = { event: "message", id: null, data: [] };
  await readLines(response, (line) => {
    if (line === "") {
      if (event.data.length) onEvent({ ...event, data: event.data.join("\n") });
      event = { event: "message", id: null, data: [] };
    } else if (!line.startsWith(":")) {
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") event.data.push(value);
      else if (field === "event") event.event = value;
      else if (field === "id") event.id = value;
    }
  });
  return response.status;
}

// NDJSON over fetch: onItem(object) per line; blank keep-alive lines are skipped.
export async function readNdjson(path, { signal, onItem, auth }) {
  const init = { headers: { Accept: "application/x-ndjson" }, signal };
  if (auth) init.headers.Authorization = `Bearer ${auth}`;
  const response = await fetch(path, init);
  if (!response.ok) return response.status;
  await readLines(response, (line) => { if (line.trim()) onItem(JSON.parse(line)); });
  return response.status;
}

// RFC 6902 JSON Patch, applied to a copy of `doc`.
export function applyPatch(doc, operations) {
  let root = structuredClone(doc);
  const parse = (pointer) => pointer === "" ? [] :
    pointer.slice(1).split("/").map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  const parentOf = (parts) => {
    let node = root;
    for (const part of parts.slice(0, -1)) node = node[part];
    return node;
  };
  const read = (pointer) => parse(pointer).reduce((node, part) => node[part], root);
  const remove = (parts) => {
    const parent = parentOf(parts), key = parts[parts.length - 1];
    const value = parent[key];
    if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
    return value;
  };
  const add = (parts, value, replace) => {
    if (parts.length === 0) { root = value; return; }
    const parent = parentOf(parts), key = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      const index = key === "-" ? parent.length : Number(key);
      if (replace) parent[index] = value; else parent.splice(index, 0, value);
    } else parent[key] = value;
  };
  for (const op of operations) {
    const parts = parse(op.path);
    if (op.op === "add") add(parts, structuredClone(op.value), false);
    else if (op.op === "replace") add(parts, structuredClone(op.value), true);
    else if (op.op === "remove") remove(parts);
    else if (op.op === "move") add(parts, remove(parse(op.from)), false);
    else if (op.op === "copy") add(parts, structuredClone(read(op.from)), false);
    else if (op.op === "test" && JSON.stringify(read(op.path)) !== JSON.stringify(op.value)) {
      throw new Error(`JSON Patch test failed at ${op.path}`);
    }
  }
  return root;
}

export function money(price) {
  if (!price) return "";
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: price.currency })
      .format(Number(price.amount));
  } catch { return `${price.amount} ${price.currency}`; }
}

// A DOM element: el("li", {class: "card"}, "text", child, …). Text is never parsed as HTML.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const pages = {
  store: (id) => `/shop/stores/${encodeURIComponent(id)}`,
  item: (id) => `/shop/items/${encodeURIComponent(id)}`,
  order: (id) => `/shop/orders/${encodeURIComponent(id)}`,
  cart: "/shop/cart",
};

// A failure the shopper should know of: a visible alert (role=alert, announced at once) in a
// fixed box over the page's corner (nothing moves), until dismissed or replaced.
export function showAlert(message) {
  let box = document.getElementById("alerts");
  if (!box) {
    box = el("div", { id: "alerts", class: "alerts" });
    document.body.append(box);
  }
  const alert = el("div", { class: "alert", role: "alert" }, el("p", {}, message),
    el("button", { type: "button", class: "link", onclick: () => alert.remove() }, "Dismiss"));
  box.replaceChildren(alert);
  return alert;
}

// A script that failed where no one caught it still tells the shopper.
addEventListener("unhandledrejection", (event) => {
  showAlert(`Something went wrong on this page: ${event.reason && event.reason.message ? event.reason.message : event.reason}. Reload the page to try again.`);
});

// The shopper's open carts (GET /carts): the same list the agent and MCP clients read; null
// (and an alert) when they cannot be read.
export async function openCarts() {
  const result = await api("GET", "/carts?limit=50");
  if (result.ok) return result.data.carts;
  showAlert(`Your cart could not be loaded: ${problem(result)}`);
  return null;
}

// The header's cart count, after a change.
export function showCartCount(carts) {
  if (!carts) return;
  const count = carts.reduce((sum, cart) => sum + cart.itemCount, 0);
  const link = document.querySelector('nav a[href="/shop/cart"]');
  if (!link) return;
  let badge = document.getElementById("cart-count");
  if (!badge) {
    badge = el("span", { class: "count", id: "cart-count" });
    link.append(" ", badge);
  }
  badge.textContent = String(count);
  badge.setAttribute("aria-label", `${count} items`);
  badge.hidden = count === 0;
}
