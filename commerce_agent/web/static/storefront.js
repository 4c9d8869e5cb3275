// The storefront: GET /stores, and GET /search?q= for the search box.
import { api, el, money, pages, problem } from "./api.js";

function itemCard(item) {
  return el("li", { class: "card" },
    el("h3", {}, el("a", { href: pages.item(item.id) }, item.name)),
    el("p", { class: "price" }, money(item.price)),
    el("p", {}, item.description || ""));
}

async function showStores() {
  const list = document.getElementById("store-list");
  const result = await api("GET", "/stores", undefined, {}, false);
  list.replaceChildren();
  if (!result.ok) { list.append(el("li", { class: "error" }, problem(result))); return; }
  const stores = Array.isArray(result.data) ? result.data : result.data.stores;
  for (const store of stores) {
    list.append(el("li", { class: "card" },
      el("h3", {}, el("a", { href: pages.store(store.id) }, store.name)),
      el("p", {}, store.description || ""),
      el("p", { class: "muted" }, `Prices in ${store.currency}`)));
  }
}

async function showResults() {
  const section = document.getElementById("results");
  const query = section.dataset.query;
  if (!query) return;
  const list = document.getElementById("result-list");
  const result = await api("GET", `/search?q=${encodeURIComponent(query)}&limit=50`);
  list.replaceChildren();
  if (!result.ok) { list.append(el("li", { class: "error" }, problem(result))); return; }
  if (!result.data.items.length) list.append(el("li", {}, "Nothing matches."));
  for (const item of result.data.items) list.append(itemCard(item));
}

showStores();
showResults();
