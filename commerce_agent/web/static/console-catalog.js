// Stock and prices: GET /admin/stores/{id}/items, then per item (or per variant) a price edit
// (PATCH /admin/items/{id}, or PUT …/variants/{variantId}), stock set (PUT …/stock) and stock
// adjustment (POST …/stock/adjustments, never below zero).
import { api, el, money, problem } from "./api.js";
import { field, fillStores, inlineForm, label, query, root, write } from "./console.js";

const VARIANTS = "dev.commerce.product.variants";
const list = document.getElementById("item-list");
const storeSelect = document.getElementById("item-store");
const statusSelect = document.getElementById("item-status");

const itemPath = (item, rest = "") => `/admin/items/${encodeURIComponent(item.id)}${rest}`;
const stockText = (stock) => (stock === null || stock === undefined ? "not counted" : `${stock} in stock`);

// The price, set-stock and adjust-stock forms of one sellable thing (an item or a variant).
function controls(item, variant) {
  const key = variant ? variant.id : item.id;
  const name = variant ? `${item.name} — ${variant.values.join(" / ")}` : item.name;
  const price = variant ? variant.price : item.price;
  const stock = variant ? variant.stock : item.stock;
  const target = variant ? { variantId: variant.id } : {};
  const priceForm = inlineForm(`Price of ${name}`, [
    ...field(`price-${key}`, `Price (${price.currency})`, { name: "amount", required: true, value: price.amount,
      inputmode: "decimal", pattern: "[0-9]+(\\.[0-9]+)?", size: "8", "aria-describedby": `name-${key}` }),
  ], "Save price", async (data) => {
    const amount = { amount: data.get("amount"), currency: price.currency };
    const result = variant
      ? await write("PUT", itemPath(item, `/variants/${encodeURIComponent(variant.id)}`),
        { values: variant.values, price: amount }, `New price of ${name}: ${money(amount)}.`)
      : await write("PATCH", itemPath(item), { price: amount }, `New price of ${name}: ${money(amount)}.`);
    if (result.ok) load();
  });
  const setForm = inlineForm(`Set stock of ${name}`, [
    ...field(`stock-${key}`, "Set stock to", { name: "quantity", type: "number", min: "0", step: "1", size: "6",
      value: stock ?? "", placeholder: "not counted", "aria-describedby": `name-${key}` }),
  ], "Set", async (data) => {
    const quantity = data.get("quantity") === "" ? null : Number(data.get("quantity"));
    if ((await write("PUT", itemPath(item, "/stock"), { quantity, ...target },
      `Stock of ${name}: ${stockText(quantity)}.`)).ok) load();
  });
  const adjustForm = inlineForm(`Adjust stock of ${name}`, [
    ...field(`delta-${key}`, "Add (or remove, with −)", { name: "delta", type: "number", step: "1", size: "6",
      required: true, "aria-describedby": `name-${key}` }),
  ], "Adjust", async (data) => {
    const delta = Number(data.get("delta"));
    const result = await write("POST", itemPath(item, "/stock/adjustments"), { delta, ...target },
      `${delta >= 0 ? "Added" : "Removed"} ${Math.abs(delta)} of ${name}.`);
    if (result.ok) load();
  });
  return el("div", { class: "stock-row", "data-key": key },
    el("p", { class: "stock-name", id: `name-${key}` }, el("strong", {}, name), " ",
      el("span", { class: "muted", "data-stock": stock ?? "" }, `${money(price)} · ${stockText(stock)}`)),
    priceForm, setForm, adjustForm);
}

function itemCard(item) {
  const variants = ((item.metadata || {})[VARIANTS] || {}).variants || [];
  return el("li", { class: "card stock-card", "data-item-id": item.id },
    el("h2", {}, item.name, " ", el("span", { class: `badge status-${item.status}` }, label(item.status))),
    el("p", { class: "muted" }, el("code", {}, item.id), " ", item.status === "archived"
      ? el("button", { type: "button", class: "link", onclick: async () => {
        if ((await write("PATCH", itemPath(item), { status: "active" }, `${item.name} is for sale again.`)).ok) load();
      } }, `Put ${item.name} back on sale`)
      : el("button", { type: "button", class: "link", onclick: async () => {
        if ((await write("POST", itemPath(item, "/archive"), {}, `${item.name} is archived: off the catalog, kept for its orders.`)).ok) load();
      } }, `Archive ${item.name}`)),
    variants.length ? variants.map((variant) => controls(item, variant)) : controls(item, null));
}

async function load() {
  if (!storeSelect.value) return;
  const result = await api("GET", `/admin/stores/${encodeURIComponent(storeSelect.value)}/items${query({ limit: "100", status: statusSelect.value })}`);
  if (!result.ok) { list.replaceChildren(el("li", { class: "error" }, problem(result))); return; }
  // The list is drawn anew; the focus goes back to the same control of the same row.
  const active = document.activeElement;
  const form = active && active.closest ? active.closest("form.inline-form") : null;
  const where = form ? { name: form.getAttribute("aria-label"), button: active.tagName === "BUTTON", id: active.id } : null;
  list.replaceChildren(...result.data.items.map(itemCard));
  if (!result.data.items.length) list.append(el("li", { class: "muted" }, "No items."));
  if (where) {
    const again = [...list.querySelectorAll("form.inline-form")].find((f) => f.getAttribute("aria-label") === where.name);
    const target = again && (where.button ? again.querySelector("button") : document.getElementById(where.id));
    if (target) target.focus();
  }
}

if (root) {
  (async () => {
    const stores = await fillStores(storeSelect);
    if (!stores.length) { list.replaceChildren(el("li", { class: "muted" }, "You run no store yet.")); return; }
    storeSelect.addEventListener("change", load);
    statusSelect.addEventListener("change", load);
    await load();
  })();
}
