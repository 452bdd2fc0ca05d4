// Motion: cards that travel between the hand, the table and the piles (FLIP: the page is drawn
// in its new state, then each card is moved from where it was). Every animation is at most 400 ms;
// all of it is off when the player turns it off or the system asks for reduced motion.

// globalThis, not window: the module is imported by tests outside a browser too.
const reduced = globalThis.matchMedia ? globalThis.matchMedia("(prefers-reduced-motion: reduce)") : null;
export const MAX_MS = 400;

export function motionOn() {
  if (reduced && reduced.matches) return false;
  return localStorage.getItem("cassino.motion") !== "off";
}

/** Where every card element (data-card) and seat anchor is now, before the page is redrawn. */
export function snapshot(root) {
  const cards = new Map();
  for (const node of root.querySelectorAll("[data-card]")) {
    if (node.closest(".ghost, [data-still]")) continue; // data-still: the count scene's cards do not travel
    cards.set(node.dataset.card, { rect: node.getBoundingClientRect(), node: node.cloneNode(true) });
  }
  return cards;
}

function centerOf(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

/** Move a drawn card from an old place to its new one. */
export function slideFrom(node, from, ms = 300, delay = 0) {
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = to.width ? from.width / to.width : 1;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) return null;
  return node.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration: Math.min(ms, MAX_MS), delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
}

/** A card that left the page (taken into a pile): a copy flies from where it was to the pile. */
export function flyAway(old, target, ms = 350, delay = 0) {
  const ghost = old.node;
  ghost.classList.add("ghost");
  ghost.removeAttribute("data-testid");
  ghost.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true; // a picture in flight: nothing in it takes focus or a click
  for (const f of [ghost, ...ghost.querySelectorAll("button, a, input, select")]) f.tabIndex = -1;
  Object.assign(ghost.style, {
    position: "fixed", left: `${old.rect.left}px`, top: `${old.rect.top}px`,
    width: `${old.rect.width}px`, height: `${old.rect.height}px`, margin: "0", zIndex: "50", pointerEvents: "none",
  });
  document.body.append(ghost);
  const end = centerOf(target);
  const dx = end.x - (old.rect.left + old.rect.width / 2);
  const dy = end.y - (old.rect.top + old.rect.height / 2);
  const anim = ghost.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0.2 }],
    { duration: Math.min(ms, MAX_MS), delay, easing: "cubic-bezier(.4,0,.6,1)", fill: "forwards" },
  );
  anim.finished.then(() => ghost.remove(), () => ghost.remove());
  return anim;
}

/** A new card arriving from somewhere (another seat's hand, the deck). */
export function arriveFrom(node, source, ms = 300, delay = 0) {
  const s = source.getBoundingClientRect();
  const own = node.getBoundingClientRect();
  const width = Math.min(own.width * 0.6, s.width || own.width);
  const height = own.width ? (width * own.height) / own.width : width;
  const left = s.left + s.width / 2 - width / 2;
  const top = s.top + s.height / 2 - height / 2;
  return slideFrom(node, { left, top, width, height }, ms, delay);
}
