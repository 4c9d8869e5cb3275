// The agent chat panel: the Agent Session Streaming API from a browser. Messages are
// POST {mount}/session (then /session/{id}); the reply is read from the NDJSON stream
// (GET {mount}/session/{id}/stream?startIndex=N&follow=true) as it is written. What was shown and
// the next index are kept in sessionStorage, so a reload or a dropped connection resumes from
// the last index: nothing is shown twice and nothing is missed.
import { el, local, readNdjson, showAlert, user } from "./api.js";

const mount = document.body.dataset.agentMount;
const KEY = "commerce.chat";
const panel = document.getElementById("chat");
const log = document.getElementById("chat-log");
const status = document.getElementById("chat-status");
const form = document.getElementById("chat-form");
const input = document.getElementById("chat-input");
let state = JSON.parse(sessionStorage.getItem(KEY) || "null");
let streaming = false;
// A session may act for the user who approved its connection: once someone was signed in,
// it is not handed to anyone else (signing in from a guest chat keeps it).
if (state && state.owner && state.owner !== user) { state = null; sessionStorage.removeItem(KEY); }
if (state && !state.owner && user) state.owner = user;

const save = () => sessionStorage.setItem(KEY, JSON.stringify(state));

// Order ids in a reply link to their order page.
function linked(text) {
  return text.split(/\b(ord_[A-Za-z0-9]+)\b/).map((part, index) =>
    index % 2 ? el("a", { href: `/shop/orders/${part}` }, part) : part);
}

// A tool call as a short human line ("Searching mugs…"), its arguments on demand.
const PHRASES = {
  search_products: (a) => [`Searching ${a.query || "the stores"}`, `Searched ${a.query || "the stores"}`],
  list_stores: () => ["Looking at the stores", "Looked at the stores"],
  get_store: () => ["Opening the store", "Opened the store"],
  get_catalog: () => ["Reading the catalog", "Read the catalog"],
  get_item: () => ["Looking at the product", "Looked at the product"],
  create_cart: () => ["Starting a cart", "Started a cart"],
  list_carts: () => ["Checking your carts", "Checked your carts"],
  view_cart: () => ["Checking the cart", "Checked the cart"],
  add_to_cart: (a) => [`Adding ${a.quantity || 1} to the cart`, `Added ${a.quantity || 1} to the cart`],
  update_cart_item: () => ["Changing the cart", "Changed the cart"],
  remove_cart_item: () => ["Removing from the cart", "Removed from the cart"],
  apply_promotion: (a) => [`Applying code ${a.code || ""}`, `Applied code ${a.code || ""}`],
  place_order: () => ["Placing the order", "Placed the order"],
  list_orders: () => ["Checking your orders", "Checked your orders"],
  get_order: () => ["Checking the order", "Checked the order"],
  cancel_order: () => ["Cancelling the order", "Cancelled the order"],
};

function toolLine(item) {
  let args = {};
  try { args = JSON.parse(item.fullArgs || item.args || "{}"); } catch { args = {}; }
  const phrase = PHRASES[item.name];
  const [running, done] = phrase ? phrase(args) : [`Using ${item.name.replace(/_/g, " ")}`, `Used ${item.name.replace(/_/g, " ")}`];
  if (item.state === "running") return `${running}…`;
  return item.state === "failed" ? `${running}: it did not work` : done;
}

function entry(item, index) {
  const key = `chat-${index}`;
  if (item.kind === "user") return el("li", { class: "msg user", id: key }, el("span", { class: "who" }, "You: "), item.text);
  if (item.kind === "assistant") return el("li", { class: "msg assistant", id: key }, el("span", { class: "who" }, "Assistant: "), el("span", { class: "text" }, linked(item.text)));
  if (item.kind === "tool") {
    const args = item.fullArgs || item.args;
    return el("li", { class: `msg tool ${item.state}`, id: key, "data-tool": item.name },
      args && args !== "{}" ? el("details", {}, el("summary", {}, toolLine(item)),
        el("code", {}, `${item.name} ${args}`)) : toolLine(item));
  }
  if (item.kind === "authorization") {
    return el("li", { class: "msg notice", id: key },
      item.done ? "Account connected." : [
        "The assistant needs your permission to shop for you. ",
        el("a", { href: item.url, target: "_blank", rel: "opener", class: "button", id: "chat-consent" },
          "Open the consent page")]);
  }
  if (item.kind === "approval") {
    const answer = (choice) => respond(item, choice);
    return el("li", { class: "msg notice approval", id: key }, el("p", {}, item.prompt),
      item.answer ? el("p", {}, `You chose: ${item.answer}.`) : el("div", { class: "row" },
        el("button", { type: "button", class: "primary", onclick: () => answer("approve") }, "Approve"),
        el("button", { type: "button", onclick: () => answer("reject") }, "Reject")));
  }
  return el("li", { class: "msg error", id: key }, item.text);
}

const greeting = document.getElementById("chat-greeting");
for (const example of document.querySelectorAll("#chat-greeting button[data-example]")) {
  example.addEventListener("click", () => { input.value = example.dataset.example; input.focus(); });
}

function draw() {
  // data-idle: the session waits for the user (tests and assistive tech can rely on it).
  panel.dataset.idle = String(!state || state.idle !== false);
  if (greeting) greeting.hidden = Boolean(state && state.items.length);
  log.replaceChildren(...(state ? state.items.map(entry) : []));
  log.scrollTop = log.scrollHeight;
}

// Apply one stream event to what the panel shows.
function apply(event) {
  const items = state.items;
  const last = items[items.length - 1];
  const data = event.data || {};
  switch (event.type) {
    case "message.appended":
      if (data.role === "user" && typeof data.content === "string") items.push({ kind: "user", text: data.content });
      break;
    case "agent.content.delta":
      if (last && last.kind === "assistant") last.text += data.text;
      else items.push({ kind: "assistant", text: data.text });
      break;
    case "agent.tool_call":
      items.push({ kind: "tool", id: data.toolCallId, name: data.tool.name.split("__").pop(),
                   fullArgs: JSON.stringify(data.args || {}).slice(0, 2000), state: "running" });
      break;
    case "agent.tool_result": {
      const call = items.find((i) => i.kind === "tool" && i.id === data.toolCallId);
      if (call) call.state = data.isError ? "failed" : "done";
      break;
    }
    case "authorization.required":
      items.push({ kind: "authorization", url: local(data.authUrl) });
      break;
    case "authorization.granted":
      for (const i of items) if (i.kind === "authorization") i.done = true;
      break;
    case "input.requested":
      items.push({ kind: "approval", requestId: data.requestId, prompt: data.prompt });
      break;
    case "input.resolved":
      for (const i of items) if (i.kind === "approval" && !i.answer) i.answer = "answered";
      break;
    case "session.failed":
      items.push({ kind: "error", text: `The assistant stopped: ${data.error || "failed"}` });
      break;
    default:
  }
}

const BOUNDARIES = ["session.waiting", "input.requested", "authorization.required", "session.failed"];

function busy(event) {
  if (["agent.start", "authorization.granted", "input.resolved"].includes(event.type)) {
    state.idle = false;
    status.textContent = "The assistant is replying…";
  }
  if (BOUNDARIES.includes(event.type)) { state.idle = true; status.textContent = ""; }
  // A following stream ends at session.failed: stop until the user writes again.
  state.failed = event.type === "session.failed";
}

// Follow the session's stream from state.nextIndex, reconnecting after drops.
async function stream() {
  if (streaming || !state) return;
  streaming = true;
  const session = state.sessionId;
  for (let attempt = 0; state && state.sessionId === session && !state.failed; attempt++) {
    try {
      const answer = await readNdjson(
        `${mount}/session/${encodeURIComponent(session)}/stream?startIndex=${state.nextIndex}&follow=true`,
        { auth: state.continuationToken, onItem(event) {
          if (!state || state.sessionId !== session || event.streamIndex < state.nextIndex) return;
          apply(event);
          busy(event);
          state.nextIndex = event.streamIndex + 1;
          save();
          draw();
        } });
      if (answer === 404) { state = null; sessionStorage.removeItem(KEY); draw(); break; }
      attempt = 0;
    } catch {
      status.textContent = "Connection lost; resuming…";
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(3000, 200 * 2 ** attempt)));
  }
  streaming = false;
}

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (state) headers.Authorization = `Bearer ${state.continuationToken}`;
  let response;
  try {
    response = await fetch(`${mount}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  } catch (error) {
    throw new Error(`could not reach the server (${error.message})`);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((data.error && data.error.message) || `The server answered ${response.status}.`);
  return data;
}

async function respond(item, choice) {
  try {
    await post(`/session/${encodeURIComponent(state.sessionId)}`,
      { continuationToken: state.continuationToken, inputResponses: { [item.requestId]: choice } });
    item.answer = choice;
    state.idle = false;
    save();
    draw();
  } catch (error) { showAlert(`Your answer did not reach the assistant: ${error.message}`); }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message) return;
  input.value = "";
  status.textContent = "Sending…";
  try {
    if (state) {
      await post(`/session/${encodeURIComponent(state.sessionId)}`, { message, continuationToken: state.continuationToken });
    } else {
      const created = await post("/session", { message, clientContext: { page: location.pathname } });
      state = { sessionId: created.sessionId, continuationToken: created.continuationToken, nextIndex: 0, items: [], owner: user };
      save();
    }
    state.idle = false;
    state.failed = false;
    save();
    draw();
    status.textContent = "The assistant is replying…";
    stream();
  } catch (error) {
    status.textContent = "";
    input.value = message;
    showAlert(`Your message was not sent: ${error.message}`);
  }
});

document.getElementById("chat-new").addEventListener("click", () => {
  state = null;
  sessionStorage.removeItem(KEY);
  status.textContent = "";
  draw();
  input.focus();
});

draw();
stream();
