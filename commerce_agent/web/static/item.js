// A product: GET /items/{id}; "Add to cart" is POST /carts (once per store) and
// POST /carts/{id}/items with the chosen variant, options, add-ons and time slot.
import { api, carts, el, money, pages, problem, signedIn } from "./api.js";

const root = document.getElementById("item");
const choices = document.getElementById("item-choices");
const message = document.getElementById("add-message");
let item = null;

function radioGroup(legend, name, options, required) {
  return el("fieldset", {}, el("legend", {}, legend),
    options.map((option, index) => el("label", { class: "choice" },
      el("input", { type: "radio", name, value: option.id, required,
                    disabled: option.disabled, checked: required && index === option.first }),
      ` ${option.label}`)));
}

function render() {
  const meta = item.metadata || {};
  document.getElementById("item-name").textContent = item.name;
  document.title = `${item.name} · commerce-agent`;
  document.getElementById("item-description").textContent = item.description || "";
  document.getElementById("item-price").textContent = money(item.price);
  if (item.compareAtPrice) {  // a sale: the price it was, struck through
    document.getElementById("item-price").after(" ", el("s", { class: "was-price", "aria-label": `was ${money(item.compareAtPrice)}` }, money(item.compareAtPrice)));
  }
  if (item.storeId) document.getElementById("store-link").href = pages.store(item.storeId);
  const parts = [];
  const variants = meta["dev.commerce.product.variants"];
  if (variants && variants.variants.length) {
    const first = variants.variants.findIndex((v) => v.available !== false);
    parts.push(radioGroup(`Choose ${variants.options.join(" and ").toLowerCase()}`, "variant",
      variants.variants.map((v) => ({
        id: v.id, first, disabled: v.available === false,
        label: `${v.values.join(" / ")} — ${money(v.price)}${v.compareAtPrice ? ` (was ${money(v.compareAtPrice)})` : ""}${v.available === false ? " (sold out)" : ""}`,
      })), true));
  }
  const custom = meta["dev.commerce.product.customization"];
  for (const group of (custom && custom.groups) || []) {
    const options = group.options.map((o) => ({
      id: o.id, first: 0,
      label: `${o.name}${o.priceModifier && Number(o.priceModifier.amount) ? ` (+${money(o.priceModifier)})` : ""}`,
    }));
    if (group.selectionType === "multiple") {
      parts.push(el("fieldset", { "data-group": group.id, "data-multiple": "true" },
        el("legend", {}, group.name),
        options.map((o) => el("label", { class: "choice" },
          el("input", { type: "checkbox", name: `group:${group.id}`, value: o.id }), ` ${o.label}`))));
    } else {
      const fieldset = radioGroup(group.name, `group:${group.id}`, options, group.required);
      fieldset.dataset.group = group.id;
      parts.push(fieldset);
    }
  }
  const addons = meta["dev.commerce.product.addons"];
  if (addons && addons.items.length) {
    parts.push(el("fieldset", {}, el("legend", {}, "Add-ons"),
      addons.items.map((a) => el("label", { class: "choice" },
        el("input", { type: "checkbox", name: "addon", value: a.id }),
        ` ${a.name} (+${money(a.price)})`))));
  }
  const scheduling = meta["dev.commerce.service.scheduling"];
  if (scheduling && scheduling.timeSlots) {
    const slots = scheduling.timeSlots.map((s) => ({
      id: s.id, first: scheduling.timeSlots.findIndex((t) => t.available !== false),
      disabled: s.available === false,
      label: `${new Date(s.startTime).toLocaleString()}${s.price ? ` — ${money(s.price)}` : ""}`,
    }));
    parts.push(radioGroup("Choose a time", "slot", slots, true));
  }
  choices.replaceChildren(...parts);
}

function chosen(form) {
  const data = new FormData(form);
  const line = { itemId: item.id, quantity: Number(data.get("quantity")) };
  if (data.get("variant")) line.variantId = data.get("variant");
  if (data.get("slot")) line.timeSlotId = data.get("slot");
  const addOnIds = data.getAll("addon");
  if (addOnIds.length) line.addOnIds = addOnIds;
  if (data.get("notes")) line.notes = data.get("notes");
  const customizations = {};
  for (const fieldset of form.querySelectorAll("fieldset[data-group]")) {
    const values = data.getAll(`group:${fieldset.dataset.group}`);
    if (!values.length) continue;
    customizations[fieldset.dataset.group] = fieldset.dataset.multiple ? values : values[0];
  }
  if (Object.keys(customizations).length) line.customizations = customizations;
  return line;
}

// The cart this browser keeps for the item's store, or a new one.
async function addToCart(line) {
  const kept = carts.all()[item.storeId];
  if (kept) {
    const added = await api("POST", `/carts/${encodeURIComponent(kept)}/items`, line);
    if (added.ok || (added.status !== 404 && added.status !== 410 && added.status !== 409)) return added;
  }
  const created = await api("POST", "/carts", { storeId: item.storeId });
  if (!created.ok) return created;
  carts.set(item.storeId, created.data.id);
  return api("POST", `/carts/${encodeURIComponent(created.data.id)}/items`, line);
}

document.getElementById("add-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!signedIn) { location.href = document.body.dataset.signInUrl; return; }
  message.className = "";
  message.textContent = "Adding…";
  const added = await addToCart(chosen(event.target));
  if (!added.ok) { message.className = "error"; message.textContent = problem(added); return; }
  message.replaceChildren(`Added to your cart (${added.data.itemCount} items, ${money(added.data.total)}). `,
    el("a", { href: pages.cart }, "Go to the cart"));
});

(async () => {
  const found = await api("GET", `/items/${encodeURIComponent(root.dataset.itemId)}`);
  if (!found.ok) { choices.replaceChildren(el("p", { class: "error" }, problem(found))); return; }
  item = found.data;
  render();
})();
