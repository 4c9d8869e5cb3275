// Catalog import: the chosen file is sent as it is (text/csv or application/json) to
// POST /admin/stores/{id}/catalog/import, the loader `commerce-agent catalog import` uses; every
// problem comes back with its line and column and is listed here.
import { el, problem, token } from "./api.js";
import { fillStores, root, say } from "./console.js";

const form = document.getElementById("import-form");
const output = document.getElementById("import-result");
const storeNames = new Map();  // store id → name (the page names stores, never shows ids)

async function send(file, storeId, dryRun) {
  const media = file.name.toLowerCase().endsWith(".json") || file.type === "application/json" ? "application/json" : "text/csv";
  const url = `/admin/stores/${encodeURIComponent(storeId)}/catalog/import?dryRun=${dryRun}&filename=${encodeURIComponent(file.name)}`;
  const call = async (fresh) => fetch(url, { method: "POST", body: file,
    headers: { "Content-Type": media, Accept: "application/json", Authorization: `Bearer ${await token(fresh)}` } });
  let response = await call(false);
  if (response.status === 401) response = await call(true);
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch { data = { message: text }; }
  return { ok: response.ok, status: response.status, data };
}

function show(result, dryRun) {
  if (result.ok) {
    const r = result.data;
    output.replaceChildren(el("p", { class: "ok", id: "import-summary" },
      `${dryRun ? "Dry run, nothing changed: would import" : "Imported"} ${r.file} into ${storeNames.get(r.storeId) || r.storeId}: ` +
      `${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged.`));
    return;
  }
  const problems = (result.data && result.data.details) || [];
  output.replaceChildren(el("p", { class: "error", role: "alert" }, problem(result)),
    problems.length ? el("table", { class: "log", id: "import-problems" },
      el("caption", {}, "Problems (nothing was imported)"),
      el("thead", {}, el("tr", {}, ["Line", "Column", "Problem"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, problems.map((p) => el("tr", {}, el("td", {}, p.line ?? ""), el("td", {}, p.column ?? ""),
        el("td", {}, p.reason || p.message))))) : null);
}

if (root) {
  const storeSelect = document.getElementById("import-store");
  fillStores(storeSelect).then((stores) => stores.forEach((store) => storeNames.set(store.id, store.name)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("import-file").files[0];
    if (!file) { say("Choose a file first.", true); return; }
    const dryRun = document.getElementById("import-dry-run").checked;
    const button = form.querySelector("button");
    button.disabled = true;
    say(`Sending ${file.name}…`);
    try {
      const result = await send(file, storeSelect.value, dryRun);
      show(result, dryRun);
      say(result.ok ? "Done." : "Nothing was imported.", !result.ok);
    } catch {
      say("The upload failed; try again.", true);
    } finally {
      button.disabled = false;
    }
  });
}
