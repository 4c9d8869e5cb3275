// Stock and prices: GET /admin/stores/{id}/items, then per item (or per variant) a price edit
// (PATCH /admin/items/{id}, or PUT …/variants/{variantId}), stock set (PUT …/stock) and stock
// adjustment (POST …/stock/adjustments, never below zero).
import { api, el, money, problem, token } from "./api.js";
import { field, fillStores, inlineForm, label, query, root, say, showFieldErrors, write } from "./console.js";

// A body that is not JSON (an image), with the session's token (fresh once on a 401).
async function rawPost(url, body, media) {
  const call = async (fresh) => fetch(url, { method: "POST", body,
    headers: { "Content-Type": media, Accept: "application/json", Authorization: `Bearer ${await token(fresh)}` } });
  let response = await call(false);
  if (response.status === 401) response = await call(true);
  let data = null;
  try { data = await response.json(); } catch { data = { message: response.statusText }; }
  return { ok: response.ok, status: response.status, data };
}

const VARIANTS = "dev.commerce.product.variants";
const list = document.getElementById("item-list");
const storeSelect = document.getElementById("item-store");
const statusSelect = document.getElementById("item-status");

const newItem = document.getElementById("new-item-form");
const currencies = new Map();  // store id → currency

const slugOf = (text) => String(text).toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 40) || "x";

// The new-item form as an item document: variants from "values / …, price, stock" lines.
function newItemBody(data, currency) {
  const name = String(data.get("name")).trim();
  const body = { name, description: String(data.get("description")).trim(),
    price: { amount: String(data.get("amount")).trim(), currency },
    fulfillmentType: data.get("fulfillmentType") };
  const stock = String(data.get("stock")).trim();
  if (stock !== "") body.stock = Number(stock);
  const options = String(data.get("options")).split(",").map((o) => o.trim()).filter(Boolean);
  const metadata = {};
  if (options.length) {
    const variants = String(data.get("variants")).split("\n").map((l) => l.trim()).filter(Boolean).map((line) => {
      const [values, price, count] = line.split(",").map((part) => part.trim());
      const list = values.split("/").map((v) => v.trim());
      return { id: `var_${slugOf(name)}_${slugOf(list.join("_"))}`, values: list,
        price: { amount: price || body.price.amount, currency },
        stock: count === undefined || count === "" ? null : Number(count) };
    });
    metadata[VARIANTS] = { _version: "1.0", options, variants };
    delete body.stock;
  }
  const image = String(data.get("image")).trim();
  if (image) metadata["dev.commerce.product.rich_info"] = { _version: "1.0", imageGallery: [{ alt: name, fallbackUrl: image }] };
  if (Object.keys(metadata).length) body.metadata = metadata;
  return body;
}

// POST the file as the body; its stored URL, or null (the problem is shown by the field).
async function upload(file, form) {
  const MAX = 2 * 1024 * 1024;
  const input = form.elements.imageFile;
  if (file.size > MAX || !/^image\/(png|jpeg|gif|webp)$/.test(file.type)) {
    showFieldErrors(form, { data: { details: [{ field: "body",
      reason: file.size > MAX ? "is larger than 2 MB" : "must be a PNG, JPEG, GIF or WebP image" }] } });
    return null;
  }
  const result = await rawPost(`/admin/stores/${encodeURIComponent(storeSelect.value)}/images`, file, file.type);
  if (!result.ok) { showFieldErrors(form, result) || say(problem(result), true); input.focus(); return null; }
  return result.data.url;
}

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
    variants.length ? variants.map((variant) => controls(item, variant)) : controls(item, null),
    editForms(item, variants));
}

// Rename or describe the item, and add a variant (PUT …/variants/{id}).
function editForms(item, variants) {
  const details = inlineForm(`Name and description of ${item.name}`, [
    ...field(`name-edit-${item.id}`, "Name", { name: "name", value: item.name, required: true, "data-field": "/name" }),
    ...field(`description-edit-${item.id}`, "Description", { name: "description", value: item.description || "", "data-field": "/description" }),
  ], "Save", async (data, form) => {
    const body = { name: data.get("name"), description: data.get("description") };
    if ((await write("PATCH", itemPath(item), body, `${body.name} is saved.`, form)).ok) load();
  });
  const options = ((item.metadata || {})[VARIANTS] || {}).options;
  const variant = inlineForm(`New variant of ${item.name}`, [
    options ? null : el("p", { class: "muted" }, "First variant: name its options (comma separated)."),
    options ? null : field(`variant-options-${item.id}`, "Options", { name: "options", required: true, "data-field": "/options" }),
    ...field(`variant-values-${item.id}`, `Values (${options ? options.join(" / ") : "separated by /"})`, { name: "values", required: true, "data-field": "/values" }),
    ...field(`variant-price-${item.id}`, `Price (${item.price.currency})`, { name: "amount", required: true, inputmode: "decimal", value: item.price.amount, "data-field": "/price" }),
    ...field(`variant-stock-${item.id}`, "Stock (empty: not counted)", { name: "stock", type: "number", min: "0", step: "1", "data-field": "/stock" }),
  ].flat().filter(Boolean), "Add variant", async (data, form) => {
    const values = String(data.get("values")).split("/").map((v) => v.trim());
    const body = { values, price: { amount: String(data.get("amount")).trim(), currency: item.price.currency },
      stock: data.get("stock") === "" ? null : Number(data.get("stock")) };
    if (!options) body.options = String(data.get("options")).split(",").map((o) => o.trim()).filter(Boolean);
    const id = `var_${slugOf(item.id.replace(/^item_/, ""))}_${slugOf(values.join("_"))}`;
    if ((await write("PUT", itemPath(item, `/variants/${encodeURIComponent(id)}`), body,
      `New variant of ${item.name}: ${values.join(" / ")}.`, form)).ok) load();
  });
  return el("details", { class: "item-edit" }, el("summary", {}, `Edit ${item.name} (${variants.length} variant(s))`), details, variant);
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
    for (const store of stores) currencies.set(store.id, store.currency);
    const showCurrency = () => { for (const node of document.querySelectorAll(".store-currency")) node.textContent = currencies.get(storeSelect.value); };
    showCurrency();
    storeSelect.addEventListener("change", showCurrency);
    newItem.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(newItem);
      const file = newItem.elements.imageFile.files[0];
      if (file) {  // uploaded first: the item links to the stored image
        const uploaded = await upload(file, newItem);
        if (!uploaded) return;
        data.set("image", uploaded);
      }
      const body = newItemBody(data, currencies.get(storeSelect.value));
      const result = await write("POST", `/admin/stores/${encodeURIComponent(storeSelect.value)}/items`, body,
        `${body.name} is created and on sale.`, newItem);
      if (result.ok) { newItem.reset(); load(); }
    });
    storeSelect.addEventListener("change", load);
    statusSelect.addEventListener("change", load);
    await load();
  })();
}
