// One order, live: GET /orders/{id}/updates (Server-Sent Events of JSON Patch, read with fetch
// so it can carry the bearer token) applied to the order in place; buttons from `actions[]`.
import { api, applyPatch, el, local, money, problem, readEvents, signedIn, token } from "./api.js";

const root = document.getElementById("order");
const orderId = root.dataset.orderId;
const live = document.getElementById("live-state");
let order = null;
let lastEventId = null;
const timeline = [];

const TRACKING = "dev.commerce.order.shipment_tracking";
const DELIVERY = "dev.commerce.order.delivery_tracking";
const KITCHEN = "dev.commerce.order.kitchen_status";
const DIGITAL = "dev.commerce.order.digital_access";
const DETAILED = "dev.commerce.order.detailed_status";

function text(id, value) { document.getElementById(id).textContent = value; }

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
  document.getElementById("tracking-body").replaceChildren(...parts.filter(Boolean));
}

async function download(entry) {
  const response = await fetch(local(entry.url), { headers: { Authorization: `Bearer ${await token()}` } });
  if (!response.ok) { text("action-message", `Download failed (${response.status}).`); return; }
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: entry.name });
  document.body.append(link);
  link.click();
  link.remove();
}

function renderDownloads(meta) {
  const entries = meta[DIGITAL] || [];
  document.getElementById("downloads").hidden = !entries.length;
  document.getElementById("download-list").replaceChildren(...entries.map((entry) =>
    el("li", {}, entry.type === "download"
      ? el("button", { type: "button", onclick: () => download(entry) }, `Download ${entry.name}`)
      : [`${entry.name}: `, el("code", {}, entry.code || ""), ` ${entry.description || ""}`])));
}

async function act(action, payload) {
  const message = document.getElementById("action-message");
  message.className = "";
  message.textContent = `${action.title}…`;
  const result = await api(action.method, action.href, payload);
  message.className = result.ok ? "" : "error";
  message.textContent = result.ok ? `Done: ${action.title.toLowerCase()}.` : problem(result);
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

function renderActions() {
  const box = document.getElementById("actions");
  const actions = order.actions || [];
  box.replaceChildren(...(actions.length ? actions.map((action) => el("button", {
    type: "button", "data-action": action.id,
    onclick: (event) => {
      box.querySelectorAll(".action-form").forEach((f) => f.remove());
      const form = actionForm(action);
      event.target.after(form);
      (form.querySelector("input, select") || form.querySelector("button")).focus();
    } }, action.title)) : [el("p", { class: "muted" }, "Nothing to do right now.")]));
}

function render() {
  const meta = order.metadata || {};
  const last = timeline[timeline.length - 1];
  if (!last || last.status !== order.status) {
    // The first status dates from the order itself; later ones from when the page saw them.
    timeline.push({ status: order.status, at: last ? new Date() : new Date(order.updatedAt || order.createdAt) });
  }
  text("order-status", order.status.replace(/_/g, " "));
  root.dataset.status = order.status;
  const detailed = meta[DETAILED];
  text("detailed-status", detailed ? `${detailed.title}: ${detailed.description}` : "");
  document.getElementById("progress").value = detailed ? detailed.progressPercentage || 0 : 0;
  document.getElementById("timeline").replaceChildren(...timeline.map((step, index) =>
    el("li", { "aria-current": index === timeline.length - 1 ? "step" : false },
      `${step.status.replace(/_/g, " ")} `, el("small", {}, step.at.toLocaleTimeString()))));
  renderTracking(meta);
  const kitchen = meta[KITCHEN];
  document.getElementById("kitchen").hidden = !kitchen;
  const waiting = kitchen && kitchen.estimatedReadyAt && !["ready_for_pickup", "picked_up", "completed"].includes(kitchen.status);
  if (kitchen) text("kitchen-status", `${kitchen.status.replace(/_/g, " ")}${waiting ? ` — ready about ${new Date(kitchen.estimatedReadyAt).toLocaleTimeString()}` : ""}`);
  renderDownloads(meta);
  document.getElementById("order-items").replaceChildren(...order.items.map((line) =>
    el("li", {}, `${line.name} × ${line.quantity} — ${money(line.lineTotal)}`)));
  text("order-total", money(order.total));
  renderActions();
}

async function follow() {
  if (!signedIn) { live.textContent = ""; return; }
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
      if (status >= 400) { live.className = "error"; live.textContent = status === 404 ? "No such order for this account." : `The server answered ${status}.`; return; }
      attempt = 0;
    } catch {
      live.textContent = "Connection lost; reconnecting…";
    }
    if (closed) { live.textContent = `This order is ${order ? order.status : "finished"}; no more updates.`; return; }
    await new Promise((resolve) => setTimeout(resolve, Math.min(3000, 250 * 2 ** attempt)));
  }
}

follow();
