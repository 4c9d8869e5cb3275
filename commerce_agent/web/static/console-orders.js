// The orders board, kept current: the page is rendered on the server (each order with exactly
// the actions the server allows it, as forms that work without this script). Every few
// seconds while the tab is visible, the same page is fetched again and the cards whose order
// changed (data-version) are swapped in place, new orders added, gone ones removed. A card
// whose form is being filled in (focus inside, or an open form) is left alone until then.
const REFRESH_MS = 4000;
const board = document.getElementById("order-board");
const live = document.getElementById("board-live");

function busy(card) {
  return card.contains(document.activeElement) || card.querySelector("details[open]") !== null;
}

let loading = false;
async function refresh() {
  if (loading || !board) return;
  loading = true;
  try {
    const response = await fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const next = fresh.getElementById("order-board");
    if (!next) return;
    const current = new Map([...board.children].map((card) => [card.dataset.orderId || "", card]));
    const wanted = [...next.children];
    const kept = new Set();
    wanted.forEach((card, index) => {
      const id = card.dataset.orderId || "";
      const old = current.get(id);
      let node = card;
      if (old && (old.dataset.version === card.dataset.version || busy(old))) node = old;
      else if (old) old.replaceWith(card);
      kept.add(node);
      const there = board.children[index];
      if (there !== node) board.insertBefore(node, there || null);
    });
    for (const card of [...board.children]) if (!kept.has(card) && !busy(card)) card.remove();
    const count = fresh.getElementById("board-live");
    if (live && count) {
      live.className = "live muted";
      live.textContent = `${count.textContent} · updated ${new Date().toLocaleTimeString()}`;
    }
  } catch {
    if (live) { live.className = "live error"; live.textContent = "Cannot reach the server; trying again…"; }
  } finally {
    loading = false;
  }
}

if (board) {
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
}
