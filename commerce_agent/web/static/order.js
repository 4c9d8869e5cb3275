// One order, live: GET /orders/{id}/updates (Server-Sent Events of JSON Patch, read with fetch
// so it can carry the bearer token) applied to the order in place; buttons from `actions[]`.
// The server rendered the order already, so the connection starts once the page has loaded and
// the browser is idle, and a render leaves alone what did not change (no repaint, no new
// largest paint, no layout shift).
import { api, applyPatch, el, local, money, problem, readEvents, showAlert, signedIn, token } from "./api.js";

const root = document.getElementById("order");
const orderId = root.dataset.orderId;
const live = document.getElementById("live-state");
let order = null;
let lastEventId = null;
// The statuses this page has seen, the first rendered by the server; later ones date from when
// the page saw them.
const steps = document.getElementById("timeline");

const TRACKING = "dev.commerce.order.shipment_tracking";
const DELIVERY = "dev.commerce.order.delivery_tracking";
const KITCHEN = "dev.commerce.order.kitchen_status";
const DIGITAL = "dev.commerce.order.digital_access";
const DETAILED = "dev.commerce.order.detailed_status";

function text(id, value) {
  const node = document.getElementById(id);
  if (node.textContent !== value) node.textContent = value;
}

// Replace `box`'s children with `nodes` only when they read differently.
function children(box, nodes) {
  const shown = nodes.filter(Boolean);
  const fresh = el("div", {}, shown);
  if (box.innerHTML !== fresh.innerHTML) box.replaceChildren(...shown);
}

// A map without tiles (no network): the store, the customer and the courier on one line.
function deliveryMap(tracking) {
  const from = order.fulfillment && order.fulfillment.origin;
  const to = order.deliveryAddress;
  const at = tracking.liveLocation;
  if (!from || !at || !to || to.latitude === undefined) {
    return at ? el("p", {}, `Courier at ${at.latitude.toFixed(4)}, ${at.longitude.toFixed(4)}`) : null;
  }
  const span = (a, b) => (b - a) || 1e-9;
  const x = (p) => 20 + 260 * (p.longitude - from.longitude) / span(from.longitude, to.longitude);
  const y = (p) => 20 + 60 * (p.latitude - from.latitude) / span(from.latitude, to.latitude);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 300 100");
  svg.setAttribute("role", "img");
  svg.setAttribute("class", "map");
  svg.setAttribute("aria-label", `Courier position ${at.latitude}, ${at.longitude}`);
  const shape = (tag, attrs) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.append(node);
  };
  shape("line", { x1: x(from), y1: y(from), x2: x(to), y2: y(to), class: "route" });
  shape("circle", { cx: x(from), cy: y(from), r: 5, class: "store" });
  shape("circle", { cx: x(to), cy: y(to), r: 5, class: "home" });
  shape("circle", { cx: x(at), cy: y(at), r: 7, class: "courier", id: "courier" });
  return svg;
}

function renderTracking(meta) {
  const parts = [];
  for (const shipment of meta[TRACKING] || []) {
    parts.push(el("p", { class: "shipment" }, `${shipment.carrier} ${shipment.trackingNumber}: `,
      el("strong", {}, shipment.status.replace(/_/g, " ")), " ",
      shipment.trackingUrl ? el("a", { href: shipment.trackingUrl, rel: "noopener" }, "carrier page") : null));
  }
  const delivery = meta[DELIVERY];
  if (delivery) {
    parts.push(el("p", { id: "delivery-status" },
      `${delivery.driver ? `${delivery.driver.name} (${delivery.driver.vehicle})` : "Courier"}: `,
      el("strong", {}, (delivery.status || "").replace(/_/g, " ")),
      delivery.estimatedArrivalAt ? ` — arrives about ${new Date(delivery.estimatedArrivalAt).toLocaleTimeString()}` : ""));
    parts.push(deliveryMap(delivery));
  }
  document.getElementById("tracking").hidden = !parts.length;
  children(document.getElementById("tracking-body"), parts);
}

async function download(entry) {
  let response;
  try {
    response = await fetch(local(entry.url), { headers: { Authorization: `Bearer ${await token()}` } });
  } catch (error) {
    showAlert(`The download failed: could not reach the server (${error.message}).`);
    return;
  }
  if (!response.ok) { showAlert(`The download failed (the server answered ${response.status}).`); return; }
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: entry.name });
  document.body.append(link);
  link.click();
  link.remove();
}

function renderDownloads(meta) {
  const entries = meta[DIGITAL] || [];
  document.getElementById("downloads").hidden = !entries.length;
  const list = document.getElementById("download-list");
  if (list.dataset.shown === JSON.stringify(entries)) return;
  list.dataset.shown = JSON.stringify(entries);
  list.replaceChildren(...entries.map((entry) =>
    el("li", {}, entry.type === "download"
      ? el("button", { type: "button", onclick: () => download(entry) }, `Download ${entry.name}`)
      : [`${entry.name}: `, el("code", {}, entry.code || ""), ` ${entry.description || ""}`])));
}

async function act(action, payload) {
  const message = document.getElementById("action-message");
  message.textContent = `${action.title}…`;
  const result = await api(action.method, action.href, payload);
  message.textContent = result.ok ? `Done: ${action.title.toLowerCase()}.` : "";
  if (!result.ok) showAlert(`${action.title} did not work: ${problem(result)}`);
}

// The inline form each action needs (a plain confirmation when it takes no input).
function actionForm(action) {
  const form = el("form", { class: "panel action-form", "aria-label": action.title });
  const field = (label, input) => { input.id = `${action.id}-${input.name}`; return [el("label", { for: input.id }, label), input]; };
  let payload = () => ({});
  if (action.id === "rate_order") {
    form.append(...field("Stars (1 to 5)", el("select", { name: "overall" },
      [5, 4, 3, 2, 1].map((n) => el("option", { value: n }, `${n} stars`)))),
    ...field("Comment (optional)", el("input", { name: "comment", maxlength: "500" })));
    payload = (data) => ({ overall: Number(data.get("overall")), ...(data.get("comment") ? { comment: data.get("comment") } : {}) });
  } else if (action.id === "add_tip") {
    form.append(...field(`Tip in ${order.total.currency}`, el("input", { name: "amount", inputmode: "decimal", required: true, pattern: "[0-9]+(\\.[0-9]{1,2})?", value: "3.00" })));
    payload = (data) => ({ amount: { amount: data.get("amount"), currency: order.total.currency } });
  } else if (action.id === "initiate_return") {
    form.append(...field("Item", el("select", { name: "line" },
      order.items.map((line) => el("option", { value: line.id || line.cartItemId }, `${line.name} × ${line.quantity}`)))),
    ...field("Reason", el("select", { name: "reason" },
      ["changed_mind", "defective", "damaged", "wrong_item", "other"].map((r) => el("option", { value: r }, r.replace(/_/g, " "))))));
    payload = (data) => {
      const line = order.items.find((l) => (l.id || l.cartItemId) === data.get("line"));
      return { orderId: order.id, items: [{ cartItemId: data.get("line"), quantity: line ? line.quantity : 1, reason: data.get("reason") }] };
    };
  } else if (action.id === "cancel") {
    form.append(...field("Reason (optional)", el("input", { name: "reason", maxlength: "500" })));
    payload = (data) => (data.get("reason") ? { reason: data.get("reason") } : {});
  }
  form.append(el("button", { type: "submit", class: "primary" }, `Confirm: ${action.title}`));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(action, payload(new FormData(form)));
    form.remove();
  });
  return form;
}

// The order's actions as buttons (the server rendered the first ones); a click opens the
// action's form below its button.
function renderActions() {
  const box = document.getElementById("actions");
  const actions = order.actions || [];
  const shown = [...box.querySelectorAll("button[data-action]")].map((button) => button.dataset.action);
  if (shown.join(" ") === actions.map((action) => action.id).join(" ") && (actions.length || box.querySelector("p"))) return;
  box.replaceChildren(...(actions.length ? actions.map((action) =>
    el("button", { type: "button", "data-action": action.id }, action.title))
    : [el("p", { class: "muted" }, "Nothing to do right now.")]));
}

// The order as the API reads it now, for an action chosen before the live stream connected.
async function current() {
  if (order) return order;
  const result = await api("GET", `/orders/${encodeURIComponent(orderId)}`);
  if (!result.ok) { showAlert(`The order could not be loaded: ${problem(result)}`); return null; }
  order = result.data;
  return order;
}

function actionsClicked(box) {
  box.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || !(await current())) return;
    const action = (order.actions || []).find((a) => a.id === button.dataset.action);
    if (!action) { showAlert("This action is no longer possible for this order."); return; }
    box.querySelectorAll(".action-form").forEach((f) => f.remove());
    const form = actionForm(action);
    button.after(form);
    (form.querySelector("input, select") || form.querySelector("button")).focus();
  });
  for (const button of box.querySelectorAll("button[data-action]")) button.disabled = false;
}

function render() {
  const meta = order.metadata || {};
  const last = steps.lastElementChild;
  if (!last || last.dataset.status !== order.status) {
    for (const step of steps.children) step.removeAttribute("aria-current");
    steps.append(el("li", { "aria-current": "step", "data-status": order.status },
      `${order.status.replace(/_/g, " ")} `, el("small", {}, new Date().toLocaleTimeString())));
  }
  text("order-status", order.status.replace(/_/g, " "));
  root.dataset.status = order.status;
  const detailed = meta[DETAILED];
  text("detailed-status", detailed ? `${detailed.title}: ${detailed.description}` : "");
  const progress = document.getElementById("progress");
  const percent = detailed ? detailed.progressPercentage || 0 : 0;
  if (Number(progress.value) !== percent) progress.value = percent;
  renderTracking(meta);
  const kitchen = meta[KITCHEN];
  document.getElementById("kitchen").hidden = !kitchen;
  const waiting = kitchen && kitchen.estimatedReadyAt && !["ready_for_pickup", "picked_up", "completed"].includes(kitchen.status);
  if (kitchen) text("kitchen-status", `${kitchen.status.replace(/_/g, " ")}${waiting ? ` — ready about ${new Date(kitchen.estimatedReadyAt).toLocaleTimeString()}` : ""}`);
  renderDownloads(meta);
  // Lines and total as the server wrote them (in the shopper's locale) unless they changed.
  const lines = JSON.stringify(order.items.map((line) => [line.name, line.quantity, line.lineTotal]));
  const itemsBox = document.getElementById("order-items");
  if (itemsBox.dataset.lines !== lines) {
    itemsBox.dataset.lines = lines;
    if (itemsBox.dataset.rendered) {
      itemsBox.replaceChildren(...order.items.map((line) =>
        el("li", {}, `${line.name} × ${line.quantity} — ${money(line.lineTotal)}`)));
      text("order-total", money(order.total));
    }
    itemsBox.dataset.rendered = "true";
  }
  renderActions();
}

async function follow() {
  if (!signedIn) return;
  live.textContent = "Connecting…";
  for (let attempt = 0; ; attempt++) {
    let closed = false;
    try {
      const status = await readEvents(`/orders/${encodeURIComponent(orderId)}/updates`, {
        lastEventId,
        onEvent(event) {
          if (event.event === "order.patch") {
            order = applyPatch(order || {}, JSON.parse(event.data));
            if (event.id) lastEventId = event.id;
            live.textContent = "Live: updates appear as they happen.";
            render();
          } else if (event.event === "close") {
            closed = true;
          }
        },
      });
      if (status === 401 && attempt < 2) { await token(true); continue; }  // token ran out
      if (status >= 400) {
        live.textContent = "";
        showAlert(status === 404 ? "No such order for this account." : `Live updates stopped: the server answered ${status}. Reload the page to try again.`);
        return;
      }
      attempt = 0;
    } catch {
      live.textContent = "Connection lost; reconnecting…";
    }
    if (closed) { live.textContent = `This order is ${order ? order.status : "finished"}; no more updates.`; return; }
    await new Promise((resolve) => setTimeout(resolve, Math.min(3000, 250 * 2 ** attempt)));
  }
}

// After the load event, when the browser is idle: the page is complete without the stream.
function whenIdle(start) {
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(start, { timeout: 2000 }) : setTimeout(start, 200));
  if (document.readyState === "complete") idle(); else addEventListener("load", idle, { once: true });
}

actionsClicked(document.getElementById("actions"));
whenIdle(follow);
