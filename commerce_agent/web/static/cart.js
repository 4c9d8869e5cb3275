// The shopper's open carts (GET /carts: the ones the agent or an MCP client filled too), line edits (PATCH/DELETE), promotion codes,
// and checkout through the x402 flow: POST /orders → 402 with `accepts` → the sandbox card form
// posts to the `confirmUrl` it names → POST /orders again with the proof in X-PAYMENT → 201.
// With Stripe on, the card is typed on the payment page (`paymentUrl`) instead.
import { api, el, local, money, openCarts, pages, problem, showCartCount, signedIn } from "./api.js";

const root = document.getElementById("carts");

function paymentOptions(result) {
  if (result.data && Array.isArray(result.data.accepts)) return result.data;
  const header = result.headers.get("PAYMENT-REQUIRED");  // x402 v2 puts it in a header
  try { return header ? JSON.parse(atob(header)) : { accepts: [] }; } catch { return { accepts: [] }; }
}

function proofHeaders(required, option, intentId) {
  const proof = { x402Version: required.x402Version || 1, scheme: option.scheme,
                  network: option.network, payload: { paymentIntentId: intentId } };
  if ((required.x402Version || 1) >= 2) {
    proof.accepted = option;
    return { "PAYMENT-SIGNATURE": btoa(JSON.stringify(proof)) };
  }
  return { "X-PAYMENT": btoa(JSON.stringify(proof)) };
}

// Whether anything in the cart is delivered (a download, a pickup or a booking is not).
function ships(cart) {
  return cart.items.some((line) => ["physical", "hybrid", null, undefined].includes(line.fulfillmentType));
}

function checkoutForm(cart) {
  if (!signedIn) {
    return el("p", { class: "panel checkout" }, el("a", { href: document.body.dataset.signInUrl }, "Sign in to check out"),
      " — this cart comes with you.");
  }
  const form = document.getElementById("checkout-template").content.firstElementChild.cloneNode(true);
  if (!ships(cart)) form.querySelector(".delivery").remove();
  const message = form.querySelector(".message");
  const fields = form.querySelectorAll("input");
  fields.forEach((input) => { input.id = `${input.name}-${cart.id}`; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const order = { cartId: cart.id };
    if (data.get("address")) {
      order.deliveryAddress = { address: data.get("address"),
                                countryCode: String(data.get("countryCode")).toUpperCase() };
    }
    message.className = "message";
    message.textContent = "Placing the order…";
    const placed = await api("POST", "/orders", order);
    if (placed.status === 201 || placed.ok) return done(cart, placed.data);
    if (placed.status !== 402) { message.className = "message error"; message.textContent = problem(placed); return; }
    const required = paymentOptions(placed);
    const option = (required.accepts || []).find((a) => a.scheme === "fiat_intent");
    if (!option) { message.className = "message error"; message.textContent = "No card payment is offered."; return; }
    message.textContent = "Payment required.";
    form.querySelector("button").disabled = true;
    if (option.extra && option.extra.paymentUrl) return payWithProvider(order, required, option);
    form.after(cardForm(cart, order, required, option));
    form.parentElement.querySelector(".card-form input").focus();
  });
  return form;
}

// A real card provider (Stripe): its card form is on the payment page (Stripe.js there), which
// sends the shopper back here with ?payment_intent=…; the order is placed then.
const PENDING = "commerce-agent.pending-payment";

function payWithProvider(order, required, option) {
  sessionStorage.setItem(PENDING, JSON.stringify({ order, required, option }));
  const link = new URL(option.extra.paymentUrl);
  link.searchParams.set("return", location.pathname);
  location.href = local(link.toString());
}

async function resumePayment() {
  const intentId = new URLSearchParams(location.search).get("payment_intent");
  const pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
  if (!intentId || !pending || pending.option.extra.paymentIntentId !== intentId) return false;
  sessionStorage.removeItem(PENDING);
  const placed = await api("POST", "/orders", pending.order,
    proofHeaders(pending.required, pending.option, intentId));
  if (placed.ok) { done({ storeId: null }, placed.data); return true; }
  root.prepend(el("p", { class: "message error", role: "alert" }, problem(placed)));
  return false;
}

function cardForm(cart, order, required, option) {
  const form = document.getElementById("card-template").content.firstElementChild.cloneNode(true);
  const message = form.querySelector(".message");
  const extra = option.extra;
  form.querySelector("input").id = `card-${cart.id}`;
  form.querySelector(".amount").textContent =
    `${money(cart.total)} — ${extra.displayName || "Card"}. ${option.description || ""}`;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const card = String(new FormData(form).get("card")).replace(/\s+/g, "");
    message.className = "message";
    message.textContent = "Paying…";
    // The card goes to the payment provider's confirmUrl, never to the order itself.
    const confirmed = await api("POST", local(extra.confirmUrl),
      { clientSecret: extra.clientSecret, card }, {}, false);
    if (!confirmed.ok) {
      message.className = "message error";
      message.textContent = `Payment failed: ${problem(confirmed)}`;
      return;
    }
    const placed = await api("POST", "/orders", order,
      proofHeaders(required, option, confirmed.data.paymentIntentId || extra.paymentIntentId));
    if (!placed.ok) { message.className = "message error"; message.textContent = problem(placed); return; }
    done(cart, placed.data);
  });
  return form;
}

function done(cart, order) {
  location.href = pages.order(order.id);
}

// The item of each line (GET /items/{id}), for the names of its variant, add-ons and slot.
const items = {};
async function itemOf(id) {
  if (!(id in items)) {
    const found = await api("GET", `/items/${encodeURIComponent(id)}`, undefined, {}, false);
    items[id] = found.ok ? found.data : null;
  }
  return items[id];
}

function describe(line, item) {
  const meta = (item && item.metadata) || {};
  const variants = (meta["dev.commerce.product.variants"] || {}).variants || [];
  const addons = (meta["dev.commerce.product.addons"] || {}).items || [];
  const slots = (meta["dev.commerce.service.scheduling"] || {}).timeSlots || [];
  const variant = variants.find((v) => v.id === line.variantId);
  const slot = slots.find((t) => t.id === line.timeSlotId);
  return [
    variant ? variant.values.join(" / ") : line.variantId,
    ...(line.addOnIds || []).map((id) => (addons.find((a) => a.id === id) || { name: id }).name),
    slot ? new Date(slot.startTime).toLocaleString() : line.timeSlotId,
  ].filter(Boolean).join(", ");
}

function lineRow(cart, line) {
  const quantity = el("input", { type: "number", min: "1", max: "99", value: line.quantity,
                                 id: `qty-${line.cartItemId}`, name: "quantity" });
  const details = describe(line, items[line.itemId]);
  return el("li", { class: "line" },
    el("span", { class: "line-name" }, el("a", { href: pages.item(line.itemId) }, line.name),
       details ? el("small", {}, ` (${details})`) : null),
    el("label", { for: `qty-${line.cartItemId}` }, "Quantity"), quantity,
    el("button", { type: "button", onclick: async () => {
      const result = await api("PATCH", `/carts/${cart.id}/items/${line.cartItemId}`,
        { quantity: Number(quantity.value) });
      if (result.ok) show(); else alert(problem(result));
    } }, "Update"),
    el("button", { type: "button", onclick: async () => {
      const result = await api("DELETE", `/carts/${cart.id}/items/${line.cartItemId}`);
      if (result.ok) show(); else alert(problem(result));
    } }, `Remove ${line.name}`),
    el("span", { class: "price" }, money(line.lineTotal)));
}

function promotionForm(cart) {
  const form = el("form", { class: "row promo" },
    el("label", { for: `promo-${cart.id}` }, "Promotion code"),
    el("input", { id: `promo-${cart.id}`, name: "code", maxlength: "64", required: true }),
    el("button", { type: "submit" }, "Apply"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await api("POST", `/carts/${cart.id}/promotions`,
      { type: "promo_code", value: new FormData(form).get("code") });
    if (result.ok) show(); else alert(problem(result));
  });
  return form;
}

// The store's shipping options for what the cart ships; choosing one reprices the cart.
function shippingForm(cart) {
  if (!(cart.shippingOptions || []).length) return null;
  const select = el("select", { id: `shipping-${cart.id}`, name: "shippingMethodId" },
    cart.shippingOptions.map((option) => el("option",
      { value: option.id, selected: cart.shippingMethod && cart.shippingMethod.id === option.id },
      `${option.name} — ${money(option.amount)}`)));
  select.addEventListener("change", async () => {
    const result = await api("PUT", `/carts/${cart.id}/shipping`, { shippingMethodId: select.value });
    if (result.ok) show(); else alert(problem(result));
  });
  return el("p", { class: "row shipping" }, el("label", { for: select.id }, "Shipping"), select);
}

const storeNames = {};
for (const heading of document.querySelectorAll("#carts section[data-cart-id] h2")) {
  storeNames[heading.closest("section").dataset.cartId] = heading.textContent;
}

async function storeName(storeId) {
  if (!(storeId in storeNames)) {
    const store = await api("GET", `/stores/${encodeURIComponent(storeId)}`, undefined, {}, false);
    storeNames[storeId] = store.ok ? store.data.name : storeId;
  }
  return storeNames[storeId];
}

async function show() {
  const sections = [];
  const carts = await openCarts();
  showCartCount(carts);
  for (const cart of carts) {
    if (!cart.items.length) continue;
    for (const line of cart.items) await itemOf(line.itemId);
    const name = storeNames[cart.id] || await storeName(cart.storeId);
    sections.push(el("section", { class: "panel cart", "data-cart-id": cart.id },
      el("h2", {}, name),
      el("ul", { class: "lines" }, cart.items.map((line) => lineRow(cart, line))),
      (cart.promotions || []).length ? el("p", {}, `Promotions: ${cart.promotions.map((p) => p.code || p.value || p.id).join(", ")}`) : null,
      promotionForm(cart),
      shippingForm(cart),
      el("p", {}, "Subtotal ", money(cart.subtotal), " · discount ", money(cart.discount),
         cart.shipping ? ` · shipping ${money(cart.shipping)}` : "",
         cart.tax ? ` · tax ${money(cart.tax)}` : "",
         " · ", el("strong", { class: "total" }, `Total ${money(cart.total)}`)),
      checkoutForm(cart)));
  }
  if (!sections.length) sections.push(el("p", {}, "Your cart is empty. ", el("a", { href: "/" }, "Browse the stores")));
  root.replaceChildren(...sections);
  root.dataset.ready = "true";  // the script's forms are in place (tests wait on it)
}

resumePayment().then((placed) => { if (!placed) show(); });
