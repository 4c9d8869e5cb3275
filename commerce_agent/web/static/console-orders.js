// The orders board: GET /admin/orders (filtered by store and status), fetched again every few
// seconds while the tab is visible and at once when it becomes visible, so new orders and
// changes made elsewhere (customers cancelling, other staff) appear without a reload. Cards
// whose order did not change are left alone, so an open form is never lost.
import { api, el, money, problem } from "./api.js";
import { field, fillStores, inlineForm, label, query, root, say, when, write } from "./console.js";

const REFRESH_MS = 4000;
const PICKUP = ["store_pickup", "kitchen_pickup"];
const TRACKING = "dev.commerce.order.shipment_tracking";
const board = document.getElementById("order-board");
const live = document.getElementById("board-live");
const storeSelect = document.getElementById("order-store");
const statusSelect = document.getElementById("order-status");
const cards = new Map();  // order id → {card, version}
const storeNames = new Map();  // store id → name: the board names stores, never shows ids
let actedOn = null;  // the order of the last action: its new card gets the focus back

const path = (order, action) => { actedOn = order.id; return `/admin/orders/${encodeURIComponent(order.id)}/${action}`; };

function summary(order) {
  const shipments = (order.metadata || {})[TRACKING] || [];
  const method = (order.fulfillment || {}).method || "";
  const detailed = (order.metadata || {})["dev.commerce.order.detailed_status"];
  return el("div", { class: "order-summary" },
    el("h2", {}, el("code", {}, order.id), " ",
      el("span", { class: `badge status-${order.status}`, "data-status": order.status }, label(order.status))),
    el("p", {}, `${storeNames.get(order.storeId) || order.storeId} · ${money(order.total)} · ${when(order.createdAt)} · ${label(method)}`),
    detailed ? el("p", { class: "detailed" }, `${detailed.title}: ${detailed.description}`) : null,
    el("ul", { class: "order-lines" }, order.items.map((line) =>
      el("li", {}, `${line.name} × ${line.quantity}`))),
    order.deliveryAddress ? el("p", { class: "muted" }, `Ship to: ${order.deliveryAddress.address}`) : null,
    shipments.map((s) => el("p", { class: "tracking" }, `${s.carrier} ${s.trackingNumber} (${label(s.status)})`)));
}

// The buttons a merchant has for an order in this status; the server decides in the end.
function actions(order) {
  const id = order.id;
  const method = (order.fulfillment || {}).method || "";
  const box = el("div", { class: "actions" });
  const open = (form) => {
    box.querySelectorAll("form").forEach((f) => f.remove());
    box.append(form);
    form.querySelector("input, button").focus();
  };
  const act = (text, action, payload, done) => el("button", { type: "button", "data-action": action,
    onclick: async () => { if ((await write("POST", path(order, action), payload, done)).ok) refresh(); } }, text);
  // Offered as the server decides (lifecycle.ships); it refuses anything else with a reason.
  const ships = !PICKUP.includes(method) && order.items.some((line) => ["physical", "hybrid"].includes(line.fulfillmentType));
  if (["confirmed", "processing"].includes(order.status) && ships) {
    box.append(el("button", { type: "button", "data-action": "ship", onclick: () => open(inlineForm(`Ship ${id}`, [
      ...field(`carrier-${id}`, "Carrier", { name: "carrier", required: true, maxlength: "100",
        value: (order.fulfillment || {}).carrier || "" }),
      ...field(`tracking-${id}`, "Tracking number", { name: "trackingNumber", required: true, maxlength: "100",
        pattern: "[A-Za-z0-9 _./\\-]+" }),
      ...field(`tracking-url-${id}`, "Tracking URL (optional)", { name: "trackingUrl", type: "url", maxlength: "2048" }),
    ], "Ship with this tracking number", async (data) => {
      const body = { carrier: data.get("carrier"), trackingNumber: data.get("trackingNumber") };
      if (data.get("trackingUrl")) body.trackingUrl = data.get("trackingUrl");
      if ((await write("POST", path(order, "advance"), body, `Shipped ${id}.`)).ok) refresh();
    })) }, "Ship…"));
  }
  if (order.status === "confirmed" && PICKUP.includes(method)) {
    box.append(act("Ready for pickup", "ready-for-pickup", {}, `${id} is ready for pickup.`));
  }
  const next = { confirmed: "Start processing", processing: ships ? "Mark in transit" : "Next status",
    in_transit: "Mark delivered" }[order.status];
  if (next) box.append(act(next, "advance", {}, `${id} moved on.`));
  if (["pending", "confirmed"].includes(order.status)) {
    box.append(el("button", { type: "button", "data-action": "cancel", onclick: () => open(inlineForm(`Cancel ${id}`, [
      ...field(`reason-${id}`, "Reason for the customer (optional)", { name: "reason", maxlength: "500" }),
    ], "Cancel and refund", async (data) => {
      const body = data.get("reason") ? { reason: data.get("reason") } : {};
      if ((await write("POST", path(order, "cancel"), body, `Cancelled ${id}; the payment is refunded.`)).ok) refresh();
    })) }, "Cancel…"));
  }
  return box;
}

function place(order) {
  const version = `${order.status}|${order.updatedAt}`;
  const known = cards.get(order.id);
  if (known && known.version === version) return known.card;
  const card = el("li", { class: "card order-card", "data-order-id": order.id, "data-status": order.status,
    tabindex: "-1" }, summary(order), actions(order));
  if (known) known.card.replaceWith(card);
  if (known && actedOn === order.id) { actedOn = null; card.focus(); }
  cards.set(order.id, { card, version });
  return card;
}

let loading = false;
let again = false;  // asked for while a fetch was under way: fetch once more after it
async function refresh() {
  if (loading) { again = true; return; }
  loading = true;
  try {
    const result = await api("GET", `/admin/orders${query({ limit: "50", storeId: storeSelect.value, status: statusSelect.value })}`);
    if (!result.ok) { live.className = "live error"; live.textContent = problem(result); return; }
    const orders = result.data.orders;
    const ids = new Set(orders.map((o) => o.id));
    for (const [id, known] of cards) if (!ids.has(id)) { known.card.remove(); cards.delete(id); }
    // Nodes are inserted in place, never all moved: moving a card would take the focus
    // out of a form being filled in.
    board.querySelectorAll(":scope > li:not(.order-card)").forEach((node) => node.remove());
    orders.map(place).forEach((card, index) => {
      const there = board.children[index];
      if (there !== card) board.insertBefore(card, there || null);
    });
    if (!orders.length) board.append(el("li", { class: "muted" }, "No orders here yet."));
    live.className = "live muted";
    // totalCount is null past 1,000 orders (counted up to there only).
    const total = result.data.pagination.totalCount ?? "more than 1,000";
    live.textContent = `${total === orders.length ? total : `Newest ${orders.length} of ${total}`} order(s) · updated ${new Date().toLocaleTimeString()} · refreshed every few seconds`;
  } catch {
    live.className = "live error";
    live.textContent = "Cannot reach the server; trying again…";
  } finally {
    loading = false;
    if (again) { again = false; refresh(); }
  }
}

if (root) {
  (async () => {
    for (const store of await fillStores(storeSelect)) storeNames.set(store.id, store.name);
    for (const select of [storeSelect, statusSelect]) {
      select.addEventListener("change", () => { cards.clear(); board.replaceChildren(); refresh(); });
    }
    await refresh();
    setInterval(() => { if (document.visibilityState === "visible") refresh(); }, REFRESH_MS);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
    say("");
  })();
}
