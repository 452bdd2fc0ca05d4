// The service worker of the page that plays offline (a template: cassino.web.site fills in the
// version and the list of the site's files). On the first visit it keeps every file of the site;
// from then on the page opens and plays from them with no network at all. A new version of any
// file makes a new worker (its version differs), which keeps the new files and then takes over;
// the page hears of it and offers to reload.

const VERSION = "__VERSION__";
const FILES = ["__FILES__"];
const CACHE = `cassino-offline-${VERSION}`;

self.addEventListener("install", (event) => {
  // every file or none: a half-kept site would fail later, offline, where nothing can mend it.
  // "no-cache": each file is checked with the server, which sends again only what changed (the
  // files the first visit has just loaded come back as 304 Not Modified, not a second download)
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("cassino-offline-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // the page's address may carry a query; its hash never reaches here
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    if (request.mode === "navigate") {
      const page = await cache.match("./");
      if (page) return page;
    }
    return fetch(request);
  })());
});
