// One store: GET /stores/{id}, then GET /catalogs/{id} for each of its catalogs.
import { api, el, money, pages, problem } from "./api.js";

const root = document.getElementById("store");

async function show() {
  const store = await api("GET", `/stores/${encodeURIComponent(root.dataset.storeId)}`);
  const catalogs = document.getElementById("catalogs");
  if (!store.ok) { catalogs.replaceChildren(el("p", { class: "error" }, problem(store))); return; }
  document.getElementById("store-name").textContent = store.data.name;
  document.title = `${store.data.name} · commerce-agent`;
  document.getElementById("store-description").textContent = store.data.description || "";
  const sections = [];
  const found = await Promise.all((store.data.catalogIds || []).map(
    (id) => api("GET", `/catalogs/${encodeURIComponent(id)}`)));
  for (const catalog of found) {
    if (!catalog.ok) continue;
    const list = el("ul", { class: "cards" });
    for (const item of catalog.data.items) {
      list.append(el("li", { class: "card" },
        el("h3", {}, el("a", { href: pages.item(item.id) }, item.name)),
        el("p", { class: "price" }, money(item.price),
          item.compareAtPrice ? el("s", { class: "was-price", "aria-label": `was ${money(item.compareAtPrice)}` }, ` ${money(item.compareAtPrice)}`) : null),
        item.available === false ? el("p", { class: "muted" }, "Sold out") : null));
    }
    sections.push(el("section", {}, el("h2", {}, catalog.data.name),
      el("p", {}, catalog.data.description || ""), list));
  }
  catalogs.replaceChildren(...sections);
}

show();
