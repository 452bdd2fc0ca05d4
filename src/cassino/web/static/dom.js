// DOM helpers every part of the page draws with: an element by id, an element made with its
// attributes and children, a card image.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** An element with attributes (class, on* listeners, true for a bare attribute) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** A card's picture (its canonical name, or "back"); the words are on the button around it. */
/** Where the card images are: the server's /cards/, or the offline site's own folder. */
const CARDS = globalThis.document?.documentElement.dataset.mode === "offline" ? "cards/" : "/cards/";
export const img = (name, cls = "card") => el("img", { src: `${CARDS}${name}.svg`, alt: "", class: cls, draggable: "false" });
