// What every merchant console page shares: the admin API called with the session's token,
// the merchant's stores in a <select>, one status line, and small form builders.
import { api, el, problem } from "./api.js";

export const root = document.getElementById("console");
const message = document.getElementById("console-message");

export const label = (status) => String(status || "").replace(/_/g, " ");

// The one status line of the page (role=status, so screen readers hear it).
export function say(text, error = false) {
  if (!message) return;
  message.className = `console-message${error ? " error" : ""}`;
  message.textContent = text;
}

// A write to the admin or webhook API: a fresh Idempotency-Key per click, so a retried
// request is applied once. Says what happened; resolves to the API's answer.
export async function write(method, path, payload, done) {
  say("Working…");
  const result = await api(method, path, payload, { "Idempotency-Key": crypto.randomUUID() });
  if (result.ok) say(done); else say(problem(result), true);
  return result;
}

// Fill `select` with the merchant's stores (keeping a first "all" option if it has one).
export async function fillStores(select) {
  const result = await api("GET", "/admin/stores");
  if (!result.ok) { say(problem(result), true); return []; }
  for (const store of result.data.stores) {
    select.append(el("option", { value: store.id }, `${store.name} (${store.id})`));
  }
  return result.data.stores;
}

// A labelled input: [label, input], the label naming the row it belongs to for screen readers.
export function field(id, text, attributes) {
  const input = el("input", { id, ...attributes });
  return [el("label", { for: id }, text), input];
}

// A small inline form: onSubmit(FormData, form) runs with the submit button disabled.
export function inlineForm(name, children, submitText, onSubmit, extra = {}) {
  const button = el("button", { type: "submit", class: "primary" }, submitText);
  const form = el("form", { class: "inline-form", "aria-label": name, ...extra }, ...children, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try { await onSubmit(new FormData(form), form); } finally { button.disabled = false; }
  });
  return form;
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

// Query string of the non-empty values.
export function query(values) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}
