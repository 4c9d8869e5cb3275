// A product page, rendered by the server; this script makes it live: the price follows the
// chosen variant, add-ons, options, time slot and quantity, the picture follows the variant,
// and "Add to cart" is POST /carts (once per store) then POST /carts/{id}/items.
import { api, el, openCarts, pages, problem, showAlert, showCartCount } from "./api.js";

const root = document.getElementById("item");
const form = document.getElementById("add-form");
const message = document.getElementById("add-message");
const priceBox = document.getElementById("item-price");
const photo = document.querySelector(".main-photo");

function money(amount) {
  const locale = form.dataset.locale ? form.dataset.locale.replace("_", "-") : undefined;
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: form.dataset.currency })
      .format(amount);
  } catch { return `${amount.toFixed(2)} ${form.dataset.currency}`; }
}

// The unit price of the current choice, as the server prices a cart line
// (commerce/services/carts/pricing.py): the slot's price, else the variant's, else the item's;
// plus every chosen add-on and option modifier.
function unitPrice() {
  let base = Number(form.dataset.base);
  const variant = form.querySelector('input[name="variant"]:checked');
  if (variant && variant.dataset.price) base = Number(variant.dataset.price);
  const slot = form.querySelector('input[name="slot"]:checked');
  if (slot && slot.dataset.price) base = Number(slot.dataset.price);
  let extra = 0;
  for (const input of form.querySelectorAll("input[data-delta]:checked")) extra += Number(input.dataset.delta);
  return base + extra;
}

function update() {
  const quantity = Math.max(1, Number(form.elements.quantity.value) || 1);
  const unit = unitPrice();
  const shown = quantity > 1 ? `${money(unit * quantity)} (${quantity} × ${money(unit)})` : money(unit);
  if (priceBox.textContent !== shown) priceBox.textContent = shown;  // no repaint when unchanged
  const variant = form.querySelector('input[name="variant"]:checked');
  if (photo && variant && variant.dataset.image && photo.getAttribute("src") !== variant.dataset.image) {
    photo.src = variant.dataset.image;
    photo.alt = variant.dataset.alt || photo.alt;
  }
}

function chosen() {
  const data = new FormData(form);
  const line = { itemId: root.dataset.itemId, quantity: Number(data.get("quantity")) };
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

// The shopper's open cart at this store (GET /carts), or a new one; null when the carts could
// not be read (openCarts showed why).
async function addToCart(line) {
  const storeId = root.dataset.storeId;
  const carts = await openCarts();
  if (carts === null) return null;
  const open = carts.find((cart) => cart.storeId === storeId);
  if (open) {
    const added = await api("POST", `/carts/${encodeURIComponent(open.id)}/items`, line);
    if (added.ok || (added.status !== 404 && added.status !== 410)) return added;
  }
  const created = await api("POST", "/carts", { storeId });
  if (!created.ok) return created;
  return api("POST", `/carts/${encodeURIComponent(created.data.id)}/items`, line);
}

form.addEventListener("input", update);
form.addEventListener("change", update);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  message.textContent = "Adding…";
  const added = await addToCart(chosen());
  if (!added || !added.ok) {
    message.textContent = "";
    if (added) showAlert(`Not added to the cart: ${problem(added)}`);
    return;
  }
  message.replaceChildren(`Added. Your cart at this store: ${added.data.itemCount} items, ${money(Number(added.data.total.amount))}. `,
    el("a", { href: pages.cart }, "Go to the cart"));
  showCartCount(await openCarts());
});
update();
