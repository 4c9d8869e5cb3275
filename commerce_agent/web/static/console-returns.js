// Returns: GET /admin/returns (by store and status) and the decisions a return is open to:
// approve or reject a request, receive the goods (back in stock), refund (completes it).
import { api, el, money, problem } from "./api.js";
import { fillStores, label, query, root, when, write } from "./console.js";

const list = document.getElementById("return-list");
const storeSelect = document.getElementById("return-store");
const statusSelect = document.getElementById("return-status");

const DECISIONS = {
  requested: [["approve", "Approve"], ["reject", "Reject"]],
  approved: [["receive", "Mark received"]],
  in_transit: [["receive", "Mark received"]],
  received: [["refund", "Refund"]],
  processed: [["refund", "Refund"]],
};

function card(ret) {
  const buttons = (DECISIONS[ret.status] || []).map(([action, text]) => el("button", {
    type: "button", "data-action": action, class: action === "reject" ? "" : "primary",
    onclick: async () => {
      const result = await write("POST", `/admin/returns/${encodeURIComponent(ret.id)}/${action}`, {},
        `${text}: ${ret.id}.`);
      if (result.ok) {
        await load();
        const again = list.querySelector(`[data-return-id="${CSS.escape(ret.id)}"]`);
        if (again) again.focus();  // the focus stays with the return just decided
      }
    } }, `${text} ${ret.id}`));
  return el("li", { class: "card", "data-return-id": ret.id, "data-status": ret.status, tabindex: "-1" },
    el("h2", {}, el("code", {}, ret.id), " ", el("span", { class: `badge status-${ret.status}` }, label(ret.status))),
    el("p", {}, "Order ", el("code", {}, ret.orderId), ` · ${when(ret.createdAt)}`,
      ret.refundAmount ? ` · refund ${money(ret.refundAmount)}` : ""),
    el("ul", {}, ret.items.map((line) => el("li", {},
      `${line.name || line.cartItemId} × ${line.quantity}${line.reason ? ` — ${label(line.reason)}` : ""}`))),
    buttons.length ? el("div", { class: "actions" }, buttons) : el("p", { class: "muted" }, "Nothing left to decide."));
}

async function load() {
  const result = await api("GET", `/admin/returns${query({ limit: "50", storeId: storeSelect.value, status: statusSelect.value })}`);
  if (!result.ok) { list.replaceChildren(el("li", { class: "error" }, problem(result))); return; }
  list.replaceChildren(...result.data.returns.map(card));
  if (!result.data.returns.length) list.append(el("li", { class: "muted" }, "No returns here."));
}

if (root) {
  (async () => {
    await fillStores(storeSelect);
    storeSelect.addEventListener("change", load);
    statusSelect.addEventListener("change", load);
    await load();
  })();
}
