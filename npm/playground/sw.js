// Offline copy of the playground. Every file the page loads is kept in the
// browser's cache on the first visit; after that a request that cannot
// reach the server is answered from the copy. Requests go to the network
// first, so a rebuilt module or an edited page shows on the next reload.
// Only this origin's files are ever fetched or kept.

const CACHE = 'mcpv-playground-v1';
const FILES = [
  './',
  './index.html',
  './styles.css',
  './main.js',
  './arg-errors.js',
  './args-form.js',
  './contract-form.js',
  './data.js',
  './dom.js',
  './examples.js',
  './form-values.js',
  './json-text.js',
  './results.js',
  './views/duplicates.js',
  './views/findings.js',
  './views/marks.js',
  './views/profile.js',
  './views/raw-json.js',
  './views/reconcile.js',
  './views/rows-table.js',
  './views/summary.js',
  '../src/browser.js',
  '../src/api.js',
  '../dist/wasm/mcp_validation_core.js',
  '../dist/wasm/mcp_validation_core_bg.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(() => caches.match(request, { ignoreSearch: true }).then((cached) => cached ?? Response.error())),
  );
});
