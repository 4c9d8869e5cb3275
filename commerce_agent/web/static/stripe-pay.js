// The payment-link page (web/payment_page.py): Stripe's card element for one payment intent.
// Once Stripe says the intent succeeded, the shopper goes back to the page that asked
// (with ?payment_intent=…, as Stripe's own redirects do) and that page places the order.
"use strict";
(function () {
  const form = document.getElementById("stripe-pay");
  if (!form) return;
  const message = form.querySelector(".message");
  if (typeof Stripe !== "function") {
    message.textContent = "Stripe's card form could not be loaded: check the connection and reload.";
    form.querySelector("button").disabled = true;
    return;
  }
  const stripe = Stripe(form.dataset.publishableKey);
  const card = stripe.elements().create("card");
  card.mount("#card-element");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    form.querySelector("button").disabled = true;
    message.textContent = "Paying…";
    const result = await stripe.confirmCardPayment(form.dataset.clientSecret, { payment_method: { card } });
    if (result.error) {
      message.textContent = result.error.message || "The card was not charged.";
      form.querySelector("button").disabled = false;
      return;
    }
    message.textContent = "Paid.";
    const back = new URL(form.dataset.return, window.location.origin);
    back.searchParams.set("payment_intent", form.dataset.intentId);
    window.location.assign(back.pathname + back.search);
  });
})();
