// The signed-in user's orders: GET /orders.
import { api, el, money, pages, problem, signedIn } from "./api.js";

(async () => {
  const list = document.getElementById("order-list");
  if (!signedIn || !list) return;
  const result = await api("GET", "/orders?limit=50");
  list.replaceChildren();
  if (!result.ok) { list.append(el("li", { class: "error" }, problem(result))); return; }
  if (!result.data.orders.length) list.append(el("li", {}, "No orders yet."));
  for (const order of result.data.orders) {
    list.append(el("li", { class: "card" },
      el("h3", {}, el("a", { href: pages.order(order.id) }, order.id)),
      el("p", {}, `${order.status.replace(/_/g, " ")} · ${money(order.total)} · ${new Date(order.createdAt).toLocaleString()}`)));
  }
})();
