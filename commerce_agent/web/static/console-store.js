// Store settings (PATCH /admin/stores/{id}: name, delivery areas, pickup address, simulator)
// and promotion codes (GET/PUT/DELETE /admin/stores/{id}/promotions/{code}); every problem
// the API names by field is shown beside that field.
import { api, el, problem } from "./api.js";
import { fillStores, root, write } from "./console.js";

const SHIPPING = "dev.commerce.store.shipping";
const storeSelect = document.getElementById("settings-store");
const settings = document.getElementById("settings-form");
const promotions = document.getElementById("promotion-list");
const promotionForm = document.getElementById("promotion-form");
let store = null;

const storePath = (rest = "") => `/admin/stores/${encodeURIComponent(storeSelect.value)}${rest}`;
const iso = (local) => (local ? new Date(local).toISOString() : undefined);

function fill() {
  const shipping = (store.metadata || {})[SHIPPING] || {};
  settings.elements.name.value = store.name || "";
  document.getElementById("settings-currency").textContent = store.currency;
  settings.elements.deliveryAreas.value = (shipping.deliveryAreas || []).join(", ");
  settings.elements.address.value = (store.location || {}).address || "";
  settings.elements.simulate.checked = Boolean(store.simulateFulfillment);
}

function promotionItem(promotion) {
  const parts = [promotion.type === "percentage" ? `${promotion.value}% off` : `${promotion.value} ${store.currency} off`,
    promotion.minimumSubtotal ? `from ${promotion.minimumSubtotal}` : null,
    promotion.startsAt ? `starts ${new Date(promotion.startsAt).toLocaleString()}` : null,
    promotion.expiresAt ? `expires ${new Date(promotion.expiresAt).toLocaleString()}` : null,
    promotion.perUserLimit ? `${promotion.perUserLimit} per customer` : null].filter(Boolean);
  return el("li", { class: "card", "data-code": promotion.code },
    el("strong", {}, promotion.code), " ", parts.join(" · "), " ",
    el("button", { type: "button", class: "link", onclick: async () => {
      const path = storePath(`/promotions/${encodeURIComponent(promotion.code)}`);
      if ((await write("DELETE", path, undefined, `${promotion.code} is deleted.`)).ok) load();
    } }, `Delete ${promotion.code}`));
}

async function load() {
  const [read, codes] = await Promise.all([api("GET", storePath()), api("GET", storePath("/promotions"))]);
  if (!read.ok) { promotions.replaceChildren(el("li", { class: "error" }, problem(read))); return; }
  store = read.data;
  fill();
  const list = codes.ok ? codes.data.promotions : [];
  promotions.replaceChildren(...list.map(promotionItem));
  if (!list.length) promotions.append(el("li", { class: "muted" }, "No promotion codes."));
}

settings.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(settings);
  const shipping = { ...((store.metadata || {})[SHIPPING] || {}) };
  delete shipping._version;
  shipping.deliveryAreas = String(data.get("deliveryAreas")).split(",").map((a) => a.trim().toUpperCase()).filter(Boolean);
  const body = { name: data.get("name"), shipping, simulateFulfillment: settings.elements.simulate.checked };
  const address = String(data.get("address")).trim();
  if (address) body.location = { ...(store.location || {}), address };
  if ((await write("PATCH", storePath(), body, "Settings saved.", settings)).ok) load();
});

promotionForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(promotionForm);
  const code = String(data.get("code")).trim().toUpperCase();
  const body = { type: data.get("type"), value: String(data.get("value")).trim() };
  for (const name of ["description", "minimumSubtotal"]) {
    const value = String(data.get(name)).trim();
    if (value) body[name] = value;
  }
  for (const name of ["startsAt", "expiresAt"]) if (data.get(name)) body[name] = iso(data.get(name));
  if (data.get("perUserLimit")) body.perUserLimit = Number(data.get("perUserLimit"));
  if (!code) {
    const input = promotionForm.elements.code;
    input.after(el("span", { class: "field-error error", id: "promo-code-error" }, "is required"));
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  const path = storePath(`/promotions/${encodeURIComponent(code)}`);
  if ((await write("PUT", path, body, `${code} is saved.`, promotionForm)).ok) {
    promotionForm.reset();
    load();
  }
});

if (root) {
  (async () => {
    const stores = await fillStores(storeSelect);
    if (!stores.length) return;
    storeSelect.addEventListener("change", load);
    await load();
  })();
}
