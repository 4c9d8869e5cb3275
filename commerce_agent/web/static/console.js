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
// With `form`, each problem the API names by field is shown beside that field's input (the
// one whose data-field is the problem's JSON pointer, or leads to it).
export async function write(method, path, payload, done, form = null) {
  say("Working…");
  if (form) clearFieldErrors(form);
  const result = await api(method, path, payload, { "Idempotency-Key": crypto.randomUUID() });
  if (result.ok) say(done);
  else if (!form || !showFieldErrors(form, result)) say(problem(result), true);
  else say("Please correct the fields marked below.", true);
  return result;
}

export function clearFieldErrors(form) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", input.dataset.describedby || "");
  }
}

// Put each field's problem right after its input; how many were placed (0: none matched).
export function showFieldErrors(form, result) {
  const details = (result.data && result.data.details) || [];
  const inputs = [...form.querySelectorAll("[data-field]")];
  let placed = 0;
  for (const detail of details) {
    if (!detail.field) continue;
    const input = inputs.find((i) => detail.field === i.dataset.field
      || detail.field.startsWith(`${i.dataset.field}/`));
    if (!input) continue;
    const id = `${input.id}-error`;
    if (!document.getElementById(id)) {
      input.after(el("span", { class: "field-error error", id }, detail.reason || detail.message || "is not valid"));
    }
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", id);
    if (!placed++) input.focus();
  }
  return placed;
}

// Fill `select` with the merchant's stores (keeping a first "all" option if it has one).
export async function fillStores(select) {
  const result = await api("GET", "/admin/stores");
  if (!result.ok) { say(problem(result), true); return []; }
  for (const store of result.data.stores) {
    select.append(el("option", { value: store.id }, store.name));
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
