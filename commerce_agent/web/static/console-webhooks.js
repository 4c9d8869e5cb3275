// Webhook subscriptions of the signed-in merchant (POST/GET/DELETE /webhooks): the signing
// secret is shown once, when a subscription is made; the delivery log of each
// (GET /webhooks/{id}/deliveries) with redelivery (POST …/deliveries/{id}/redeliver).
import { api, el, problem } from "./api.js";
import { label, root, say, when, write } from "./console.js";

const form = document.getElementById("webhook-form");
const list = document.getElementById("webhook-list");
const secretBox = document.getElementById("webhook-secret");
const logSection = document.getElementById("deliveries");
const rows = document.getElementById("delivery-rows");
let shown = null;  // the subscription whose log is open

async function showLog(hook) {
  shown = hook;
  const result = await api("GET", `/webhooks/${encodeURIComponent(hook.id)}/deliveries?limit=50`);
  if (!result.ok) { say(problem(result), true); return; }
  logSection.hidden = false;
  document.getElementById("delivery-caption").textContent = `Deliveries to ${hook.url}, newest first`;
  rows.replaceChildren(...result.data.deliveries.map((d) => el("tr", { "data-delivery-id": d.id },
    el("td", d.storeId ? { "data-store-id": d.storeId } : {}, d.event), el("td", {}, label(d.status)), el("td", {}, d.attempts),
    el("td", {}, d.lastStatusCode ?? d.lastError ?? ""), el("td", {}, when(d.deliveredAt || d.createdAt)),
    el("td", {}, el("button", { type: "button", onclick: async () => {
      if ((await write("POST", `/webhooks/${encodeURIComponent(hook.id)}/deliveries/${encodeURIComponent(d.id)}/redeliver`,
        undefined, `Sent ${d.event} again as a new delivery.`)).ok) showLog(hook);
    } }, `Redeliver ${d.event}`)))));
  if (!result.data.deliveries.length) rows.append(el("tr", {}, el("td", { colspan: "6" }, "No deliveries yet.")));
}

function card(hook) {
  return el("li", { class: "card", "data-webhook-id": hook.id },
    el("h3", {}, hook.url, " ", el("span", { class: "badge" }, hook.active ? "active" : "inactive")),
    el("p", { class: "muted" }, `${hook.events.map((e) => (e === "*" ? "every event" : e)).join(", ")}${hook.description ? ` · ${hook.description}` : ""}`),
    hook.deactivatedReason ? el("p", { class: "error" }, hook.deactivatedReason) : null,
    el("div", { class: "actions" },
      el("button", { type: "button", onclick: async () => { await showLog(hook); document.getElementById("delivery-title").focus(); } },
        `Delivery log of ${hook.url}`),
      el("button", { type: "button", onclick: async () => {
        if ((await write("DELETE", `/webhooks/${encodeURIComponent(hook.id)}`, undefined, `Deleted the subscription to ${hook.url}.`)).ok) {
          if (shown && shown.id === hook.id) logSection.hidden = true;
          load();
        }
      } }, `Delete ${hook.url}`)));
}

async function load() {
  const result = await api("GET", "/webhooks?includeInactive=true&limit=50");
  if (!result.ok) { list.replaceChildren(el("li", { class: "error" }, problem(result))); return; }
  list.replaceChildren(...result.data.webhooks.map(card));
  if (!result.data.webhooks.length) list.append(el("li", { class: "muted" }, "No subscriptions yet."));
}

if (root) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const events = data.getAll("events");
    if (!events.length) { say("Choose at least one event.", true); return; }
    const body = { url: data.get("url"), events: events.includes("*") ? ["*"] : events };
    if (data.get("description")) body.description = data.get("description");
    const result = await write("POST", "/webhooks", body, "Subscribed. Copy the signing secret now: it is not shown again.");
    if (!result.ok) return;
    secretBox.hidden = false;
    secretBox.replaceChildren(el("p", {}, "Signing secret of ", el("code", {}, result.data.url),
      " (shown this once; verify each delivery's webhook-signature with it):"),
      el("p", {}, el("code", { id: "secret-value" }, result.data.secret)));
    secretBox.focus();
    form.reset();
    load();
  });
  load();
}
