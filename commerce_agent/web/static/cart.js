// The cart page, rendered by the server with a form for every change (it works without this
// script). The script sends the same changes to the Commerce API (PATCH/DELETE a line, POST a
// promotion code, PUT the shipping option) and redraws the carts from the page as the server
// renders it then; a refused change shows an alert. Checkout is the x402 flow: POST /orders →
// 402 with `accepts` → the sandbox card form posts to the `confirmUrl` it names → POST /orders
// again with the proof in X-PAYMENT → 201. With Stripe on, the card is typed on the payment
// page (`paymentUrl`) instead.
import { api, local, pages, problem, showAlert } from "./api.js";

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

// The checkout form the server rendered for `cartId` (the address only when something ships).
async function checkout(form, cartId) {
  const data = new FormData(form);
  const order = { cartId };
  if (data.get("address")) {
    order.deliveryAddress = { address: data.get("address"),
                              countryCode: String(data.get("countryCode")).toUpperCase() };
  }
  const message = form.querySelector(".message");
  message.textContent = "Placing the order…";
  const placed = await api("POST", "/orders", order);
  if (placed.status === 201 || placed.ok) return done(placed.data);
  if (placed.status !== 402) { message.textContent = ""; showAlert(`The order was not placed: ${problem(placed)}`); return; }
  const required = paymentOptions(placed);
  const option = (required.accepts || []).find((a) => a.scheme === "fiat_intent");
  if (!option) { message.textContent = ""; showAlert("No card payment is offered."); return; }
  message.textContent = "Payment required.";
  form.querySelector("button[type=submit]").disabled = true;
  if (option.extra && option.extra.paymentUrl) return payWithProvider(order, required, option);
  const total = form.closest("section").dataset.total;
  form.after(cardForm(cartId, total, order, required, option));
  form.parentElement.querySelector(".card-form input").focus();
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
  if (placed.ok) { done(placed.data); return true; }
  showAlert(`The order was not placed: ${problem(placed)}`);
  return false;
}

function cardForm(cartId, total, order, required, option) {
  const form = document.getElementById("card-template").content.firstElementChild.cloneNode(true);
  const message = form.querySelector(".message");
  const extra = option.extra;
  form.querySelector("input").id = `card-${cartId}`;
  form.querySelector(".amount").textContent =
    `${total} — ${extra.displayName || "Card"}. ${option.description || ""}`;
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
    done(placed.data);
  });
  return form;
}

function done(order) {
  location.href = pages.order(order.id);
}

// Redraw the carts (and the header's count) from the cart page as the server renders it now.
async function refresh(focusId) {
  let response;
  try {
    response = await fetch(pages.cart, { headers: { Accept: "text/html" }, credentials: "same-origin" });
  } catch (error) {
    showAlert(`The cart could not be reloaded (${error.message}). Reload the page.`);
    return;
  }
  if (!response.ok) { showAlert(`The cart could not be reloaded (the server answered ${response.status}).`); return; }
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  root.replaceChildren(...document.adoptNode(fresh.getElementById("carts")).childNodes);
  const count = fresh.getElementById("cart-count");
  const badge = document.getElementById("cart-count");
  if (badge && count) badge.replaceWith(document.adoptNode(count));
  else if (badge) badge.remove();
  else if (count) document.querySelector(`nav a[href="${pages.cart}"]`).append(" ", document.adoptNode(count));
  const again = focusId && document.getElementById(focusId);
  (again || document.querySelector("#carts h2, #carts a") || document.getElementById("main")).focus();
}

// A change of the form's cart, through the Commerce API.
function change(data) {
  const cart = `/carts/${encodeURIComponent(data.get("cart_id"))}`;
  const line = `${cart}/items/${encodeURIComponent(data.get("line_id"))}`;
  switch (data.get("action")) {
    case "update": return api("PATCH", line, { quantity: Number(data.get("quantity")) });
    case "remove": return api("DELETE", line);
    case "promotion": return api("POST", `${cart}/promotions`, { type: "promo_code", value: data.get("code") });
    case "shipping": return api("PUT", `${cart}/shipping`, { shippingMethodId: data.get("shippingMethodId") || null });
    default: return null;
  }
}

root.addEventListener("submit", async (event) => {
  const form = event.target;
  const data = new FormData(form, event.submitter);
  if (!data.get("cart_id")) return;  // the card form has its own handler
  event.preventDefault();
  if (data.get("action") === "checkout") { await checkout(form, data.get("cart_id")); return; }
  const pending = change(data);
  if (!pending) return;
  const result = await pending;
  if (!result.ok) { showAlert(problem(result)); return; }
  await refresh(event.submitter && data.get("action") === "update" ? `qty-${data.get("line_id")}` : null);
});

// Choosing a shipping option applies it at once.
root.addEventListener("change", (event) => {
  if (event.target.name === "shippingMethodId") event.target.form.requestSubmit();
});

resumePayment().finally(() => { root.dataset.ready = "true"; });  // tests wait on data-ready
