// The developer console: opens on the starter basemap without a key, and calls the public API with the key
// the user enters when a call needs one. No secrets live here.
import * as maplibregl from '/console/assets/maplibre-gl.mjs';

const $ = (id) => document.getElementById(id);
/** `keyWaiters`: calls waiting for a key (askForKey); `basemap`: the archive drawn, null before one is. */
const state = { key: '', map: null, clicks: [], keyWaiters: [], basemap: null };
const ATTRIBUTION = '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
const STARTER_CENTER = [-0.2, 5.6];

function status(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : '';
}

function list(items, render) {
  const ol = document.createElement('ol');
  for (const item of items) {
    const li = document.createElement('li');
    li.textContent = render(item);
    ol.append(li);
  }
  return ol;
}

function show(title, ...nodes) {
  const out = $('output');
  out.replaceChildren();
  const h = document.createElement('h2');
  h.textContent = title;
  out.append(h, ...nodes.map((node) => (typeof node === 'string' ? Object.assign(document.createElement('p'), { textContent: node }) : node)));
}

/**
 * A call needs a key and none was entered: the key field says so and takes
 * the focus, and the call goes on once a key is submitted (or a key from the
 * signup form is used).
 */
function askForKey(what) {
  const note = $('key-needed');
  note.textContent = `${what} needs an API key: enter yours above, or sign up for a free one.`;
  note.hidden = false;
  status(note.textContent);
  $('key').focus();
  return new Promise((resolve) => state.keyWaiters.push(resolve));
}

async function api(method, url, body) {
  if (!state.key) await askForKey(`${method} ${url.split('?')[0]}`);
  const headers = { 'x-api-key': state.key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => ({}));
  if (response.status === 501) throw new Error('not available yet');
  if (!response.ok) throw new Error(json?.error?.message ?? `${response.status}`);
  return json.data ?? json;
}

function setGeoJson(id, data, paint, type = 'line') {
  const map = state.map;
  if (map.getSource(id)) map.getSource(id).setData(data);
  else {
    map.addSource(id, { type: 'geojson', data });
    map.addLayer({ id, type, source: id, paint });
  }
}

/** The starter basemap's layers (docs/adr/0027, labels docs/adr/0037), drawn by name. */
const ROAD_STYLE = [
  // class, colour, width at z10, width at z16
  ['path', '#c8b8a0', 0.3, 1.5],
  ['service', '#ffffff', 0.3, 3],
  ['minor', '#ffffff', 0.5, 6],
  ['tertiary', '#fff6c8', 0.8, 8],
  ['secondary', '#f7d58b', 1, 9],
  ['primary', '#f4b26b', 1.3, 11],
  ['trunk', '#e8925a', 1.5, 12],
  ['motorway', '#d9724a', 1.8, 13],
];
/** Font stacks the console serves glyphs of (/console/glyphs/{fontstack}/{range}.pbf, drawn from Noto Sans). */
const REGULAR = ['Noto Sans Regular'];
const BOLD = ['Noto Sans Bold'];
const ITALIC = ['Noto Sans Italic'];
const HALO = { 'text-halo-color': 'rgba(255,255,255,0.9)', 'text-halo-width': 1.5 };
/** The labelled layers, for scripts in the page (and the browser test) to ask which labels are drawn. */
const LABEL_LAYERS = ['place-labels-major', 'place-labels-minor', 'region-labels', 'district-labels', 'water-labels', 'road-refs', 'national-road-refs', 'street-names'];

/**
 * `national`: the source of the country-wide layers (boundaries, national roads, places, label points), complete up to
 * their own max zoom and overzoomed beyond it; `basemap`: the detailed streets up to z14 (an older starter archive has
 * only `roads` and `boundaries`, both from `basemap`).
 */
function starterLayers(national, labelled) {
  const width = (w10, w16) => ['interpolate', ['exponential', 1.6], ['zoom'], 6, w10 / 4, 10, w10, 16, w16];
  const layers = [
    { id: 'districts-fill', type: 'fill', source: national, 'source-layer': 'boundaries', filter: ['==', ['get', 'admin_level'], 2], paint: { 'fill-color': '#ebe7dc', 'fill-outline-color': '#d6cfbd' } },
    { id: 'districts-line', type: 'line', source: national, 'source-layer': 'boundaries', minzoom: 7, filter: ['==', ['get', 'admin_level'], 2], paint: { 'line-color': '#b9ad94', 'line-width': 0.6, 'line-dasharray': [3, 2] } },
    { id: 'regions-line', type: 'line', source: national, 'source-layer': 'boundaries', filter: ['==', ['get', 'admin_level'], 1], paint: { 'line-color': '#8f7f9f', 'line-width': ['interpolate', ['linear'], ['zoom'], 5, 0.8, 12, 2] } },
  ];
  if (labelled) {
    layers.push({ id: 'national-roads-casing', type: 'line', source: national, 'source-layer': 'national_roads', minzoom: 9, layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#a89f91', 'line-width': ['interpolate', ['exponential', 1.6], ['zoom'], 9, 2, 16, 14] } });
    for (const [roadClass, color, w10, w16] of ROAD_STYLE.filter(([c]) => ['secondary', 'primary', 'trunk'].includes(c))) {
      layers.push({ id: `national-roads-${roadClass}`, type: 'line', source: national, 'source-layer': 'national_roads', filter: ['==', ['get', 'class'], roadClass], layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': color, 'line-width': width(w10 * 1.5, w16) } });
    }
  }
  layers.push({ id: 'roads-casing', type: 'line', source: 'basemap', 'source-layer': 'roads', minzoom: 12, filter: ['!=', ['get', 'class'], 'path'], layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#a89f91', 'line-width': ['interpolate', ['exponential', 1.6], ['zoom'], 12, 2, 16, 14] } });
  for (const [roadClass, color, w10, w16] of ROAD_STYLE) {
    layers.push({ id: `roads-${roadClass}`, type: 'line', source: 'basemap', 'source-layer': 'roads', filter: ['==', ['get', 'class'], roadClass], layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': color, 'line-width': width(w10, w16) } });
  }
  if (!labelled) return layers;
  const text = (id, source, sourceLayer, layout, paint, extra = {}) => ({ id, type: 'symbol', source, 'source-layer': sourceLayer, layout, paint: { ...HALO, ...paint }, ...extra });
  layers.push(
    text('water-labels', national, 'water_labels', { 'text-field': ['get', 'name'], 'text-font': ITALIC, 'text-size': ['interpolate', ['linear'], ['zoom'], 6, 11, 12, 14], 'text-max-width': 8 }, { 'text-color': '#3a6ea5' }, { minzoom: 6 }),
    text('street-names', 'basemap', 'roads', { 'symbol-placement': 'line', 'text-field': ['get', 'name'], 'text-font': REGULAR, 'text-size': ['interpolate', ['linear'], ['zoom'], 13, 10, 17, 13], 'symbol-spacing': 350 }, { 'text-color': '#3d3d3d' }, { minzoom: 13, filter: ['all', ['has', 'name'], ['!=', ['get', 'class'], 'path']] }),
    text('road-refs', 'basemap', 'roads', { 'symbol-placement': 'line', 'text-field': ['get', 'ref'], 'text-font': BOLD, 'text-size': 11, 'symbol-spacing': 400 }, { 'text-color': '#8a3d12' }, { minzoom: 11, filter: ['has', 'ref'] }),
    text('national-road-refs', national, 'national_roads', { 'symbol-placement': 'line', 'text-field': ['get', 'ref'], 'text-font': BOLD, 'text-size': ['interpolate', ['linear'], ['zoom'], 6, 10, 12, 12], 'symbol-spacing': 300, 'symbol-sort-key': ['match', ['get', 'class'], 'trunk', 0, 'primary', 1, 2] }, { 'text-color': '#8a3d12' }, { minzoom: 6, filter: ['has', 'ref'] }),
    text('district-labels', national, 'boundary_labels', { 'text-field': ['get', 'name'], 'text-font': REGULAR, 'text-transform': 'uppercase', 'text-letter-spacing': 0.08, 'text-size': ['interpolate', ['linear'], ['zoom'], 8, 9, 12, 12], 'text-max-width': 8 }, { 'text-color': '#857a63' }, { minzoom: 8, filter: ['==', ['get', 'admin_level'], 2] }),
    text('region-labels', national, 'boundary_labels', { 'text-field': ['get', 'name'], 'text-font': BOLD, 'text-transform': 'uppercase', 'text-letter-spacing': 0.12, 'text-size': 11, 'text-max-width': 8 }, { 'text-color': '#75658a' }, { minzoom: 5, maxzoom: 8, filter: ['==', ['get', 'admin_level'], 1] }),
    // Localities by rank (0 capital … 5 hamlet): the cities from the country view, towns from 6, villages from 9, suburbs and hamlets from 12.
    text('place-labels-minor', national, 'places', { 'text-field': ['get', 'name'], 'text-font': REGULAR, 'text-size': ['match', ['get', 'rank'], 3, 12, 4, 11, 10], 'text-max-width': 8, 'symbol-sort-key': ['get', 'rank'] }, { 'text-color': '#333333' }, { minzoom: 9, filter: ['step', ['zoom'], ['==', ['get', 'rank'], 4], 12, ['>=', ['get', 'rank'], 3]] }),
    text('place-labels-major', national, 'places', { 'text-field': ['get', 'name'], 'text-font': BOLD, 'text-size': ['interpolate', ['linear'], ['zoom'], 5, ['match', ['get', 'rank'], 0, 13, 1, 12, 10], 12, ['match', ['get', 'rank'], 0, 20, 1, 18, 15]], 'text-max-width': 8, 'symbol-sort-key': ['get', 'rank'] }, { 'text-color': '#1a1a1a' }, { filter: ['step', ['zoom'], ['<=', ['get', 'rank'], 1], 6, ['<=', ['get', 'rank'], 2]] }),
  );
  return layers;
}

/** Any other vector archive: its layers drawn as generic fills, lines and points. */
function genericLayers(layerIds) {
  return layerIds.flatMap((layer) => [
    { id: `${layer}-fill`, type: 'fill', source: 'basemap', 'source-layer': layer, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#dde8d0' } },
    { id: `${layer}-line`, type: 'line', source: 'basemap', 'source-layer': layer, filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': '#b06a2c', 'line-width': 1.5 } },
    { id: `${layer}-point`, type: 'circle', source: 'basemap', 'source-layer': layer, filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 3, 'circle-color': '#345' } },
  ]);
}

const protocol = new pmtiles.Protocol();
maplibregl.addProtocol('pmtiles', protocol.tile);

/** The starter basemap the console serves without a key (GET /console/basemap.pmtiles), or null when this server has none. */
async function publicArchive() {
  const url = `${location.origin}/console/basemap.pmtiles`;
  const source = new pmtiles.PMTiles(new pmtiles.FetchSource(url));
  try {
    const header = await source.getHeader();
    return header.tileType === pmtiles.TileType.Mvt ? { name: 'starter', url, source, center: [header.centerLon, header.centerLat] } : null;
  } catch {
    return null;
  }
}

/** With a key: the archives of GET /v2/tiles, the starter first, else the first vector one (a server without a public starter basemap). */
async function keyedArchive() {
  const archives = (await api('GET', '/v2/tiles')).items ?? [];
  const chosen = archives.find((a) => a.name === 'starter' && a.pmtiles?.tile_type === 'mvt') ?? archives.find((a) => a.pmtiles?.tile_type === 'mvt');
  if (!chosen) return null;
  const url = `${location.origin}/v2/tiles/${chosen.name}`;
  const center = chosen.pmtiles?.center ? [chosen.pmtiles.center.lng, chosen.pmtiles.center.lat] : null;
  return { name: chosen.name, url, source: new pmtiles.PMTiles(new pmtiles.FetchSource(url, new Headers({ 'x-api-key': state.key }))), center };
}

/** The map style over an archive (or the bare background without one). */
async function basemapStyle(archive) {
  const style = {
    version: 8,
    // Label glyphs, drawn on this server from Noto Sans (docs/adr/0037): same origin, as the CSP wants.
    glyphs: `${location.origin}/console/glyphs/{fontstack}/{range}.pbf`,
    sources: {},
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f2efe9' } }],
  };
  if (!archive) return style;
  protocol.add(archive.source);
  const metadata = await archive.source.getMetadata().catch(() => ({}));
  const layerIds = (metadata.vector_layers ?? []).map((layer) => layer.id);
  // The archive's own credits (the starter's: OpenStreetMap contributors, the World Bank's roads, the boundaries' source, GeoNames), escaped; OpenStreetMap always.
  const credits = String(metadata.attribution ?? '').split(';').map((line) => line.trim()).filter((line) => line && !line.includes('OpenStreetMap'));
  const attribution = [ATTRIBUTION, ...credits.map(escapeHtml)].join(' | ');
  style.sources.basemap = { type: 'vector', url: `pmtiles://${archive.url}`, attribution };
  const labelled = ['national_roads', 'places', 'boundary_labels'].every((id) => layerIds.includes(id));
  if (labelled) {
    // The country-wide layers end at their own max zoom (10 in the starter): read from there and overzoomed, so Kumasi at z15 is not blank.
    const maxzoom = Math.max(...metadata.vector_layers.filter((layer) => layer.id !== 'roads').map((layer) => layer.maxzoom ?? 14));
    style.sources.national = { type: 'vector', tiles: [`pmtiles://${archive.url}/{z}/{x}/{y}`], minzoom: 0, maxzoom, ...(metadata.bounds ? { bounds: metadata.bounds } : {}), attribution };
  }
  style.layers.push(...(layerIds.includes('roads') && layerIds.includes('boundaries') ? starterLayers(labelled ? 'national' : 'basemap', labelled) : genericLayers(layerIds)));
  return style;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const HELP = 'Click the map, or Tab to it: arrows pan, + and − zoom, Enter acts at its centre.';

/**
 * The map, at once and without a key: the starter basemap the console serves,
 * at the view `#zoom/lat/lng` in the address names (kept up to date as the map
 * moves, MapLibre's `hash`), else at the archive's centre.
 */
async function start() {
  status('Loading the map…');
  const archive = await publicArchive();
  const style = await basemapStyle(archive);
  const center = archive?.center ?? STARTER_CENTER;
  const map = new maplibregl.Map({ container: 'map', style, center, zoom: 14, hash: true, attributionControl: false, preserveDrawingBuffer: true });
  map.addControl(new maplibregl.AttributionControl({ compact: false, customAttribution: ATTRIBUTION }));
  map.addControl(new maplibregl.NavigationControl());
  state.map = map;
  state.basemap = archive?.name ?? null;
  // For scripts in the page and the browser test: the map, and which of its layers are labels.
  window.consoleMap = map;
  window.consoleLabelLayers = LABEL_LAYERS;
  map.on('click', (event) => onClick(event.lngLat).catch((error) => status(error.message, true)));
  // Keyboard: MapLibre pans and zooms the focused map; Enter does what a click at its centre would.
  const canvas = map.getCanvas();
  canvas.setAttribute('aria-label', `Map. ${HELP}`);
  canvas.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onClick(map.getCenter()).catch((error) => status(error.message, true));
  });
  await new Promise((resolve) => (map.loaded() ? resolve() : map.once('load', resolve)));
  $('tools').hidden = false;
  status(archive ? `Basemap: ${archive.name}. ${HELP}` : 'No public basemap on this server: enter a key to draw its archives.');
  document.body.dataset.ready = 'true';
}

/** A server without a public starter basemap: once there is a key, the archive GET /v2/tiles offers. */
async function keyedBasemap() {
  const archive = await keyedArchive();
  if (!archive) return status('No basemap archive on this server; click the map anyway.');
  state.map.setStyle(await basemapStyle(archive));
  state.basemap = archive.name;
  if (!location.hash && archive.center) state.map.jumpTo({ center: archive.center });
  status(`Basemap: ${archive.name}. ${HELP}`);
}

function mode() {
  return document.querySelector('input[name=mode]:checked').value;
}

async function onClick({ lng, lat }) {
  const m = mode();
  if (m === 'hex') return showHex(lat, lng);
  if (m === 'geofence') return createGeofence(lat, lng);
  if (m === 'incident') return reportIncident(lat, lng);
  state.clicks.push({ lat, lng });
  if (state.clicks.length < 2) return status('Now click the destination.');
  const [from, to] = state.clicks;
  state.clicks = [];
  return m === 'route' ? route(from, to) : transit(from, to);
}

async function showHex(lat, lng) {
  const data = await api('GET', `/v2/reverse?lat=${lat.toFixed(6)}&lng=${lng.toFixed(6)}`);
  $('hexcode').textContent = data.display ?? data.code;
  const cell = data.cell ?? h3.latLngToCell(lat, lng, data.resolution ?? 12);
  const ring = h3.cellToBoundary(cell, true);
  setGeoJson('cell', { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }, { 'line-color': '#d0021b', 'line-width': 3 });
  status(`Cell ${cell}`);
}

async function route(from, to) {
  status('Routing…');
  const data = await api('POST', '/v2/route', { from, to, narration: 'landmark' });
  setGeoJson('route', { type: 'Feature', properties: {}, geometry: data.geometry }, { 'line-color': '#0060df', 'line-width': 4 });
  const steps = data.steps ?? [];
  const items = list(steps, (step) => `${step.instruction} — ${Math.round(step.distance_m)} m${step.landmark ? ` (landmark: ${step.landmark.name})` : ''}`);
  items.id = 'route-steps';
  show(`Route: ${(data.distance_m / 1000).toFixed(1)} km, ${Math.round(data.duration_s / 60)} min${data.summary ? ` via ${data.summary}` : ''}`, items);
  status(`Route with ${steps.length} steps`);
}

function legText(leg) {
  if (leg.mode === 'walk') return `walk ${Math.round(leg.distance_m)} m${leg.to?.name ? ` to ${leg.to.name}` : ''}`;
  return `${leg.route?.short_name ?? leg.route?.name ?? 'transit'} towards ${leg.headsign ?? leg.to?.name ?? '?'} (${leg.stops?.length ?? 0} stops)`;
}

async function transit(from, to) {
  status('Planning…');
  const data = await api('POST', '/v2/route/transit', { from, to });
  const itineraries = data.itineraries ?? [];
  const first = itineraries[0];
  const features = (first?.legs ?? []).filter((leg) => leg.geometry?.length > 1).map((leg) => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: leg.geometry } }));
  setGeoJson('transit', { type: 'FeatureCollection', features }, { 'line-color': '#7b3fa0', 'line-width': 4 });
  const items = list(itineraries, (it) => `${Math.round(it.duration_s / 60)} min, ${it.transfers} transfer(s): ${it.legs.map(legText).join(' → ')}`);
  items.id = 'transit-itineraries';
  show('Transit itineraries', ...(data.note ? [data.note] : []), itineraries.length ? items : 'No transit itinerary.');
  status(`${itineraries.length} itinerar${itineraries.length === 1 ? 'y' : 'ies'}`);
}

/** A circle as a 48-sided polygon (good to well under a metre at geofence radii). */
function circle(center, radiusM) {
  const ring = [];
  for (let i = 0; i <= 48; i++) {
    const angle = (i / 48) * 2 * Math.PI;
    const dLat = (radiusM * Math.cos(angle)) / 111_320;
    const dLng = (radiusM * Math.sin(angle)) / (111_320 * Math.cos((center.lat * Math.PI) / 180));
    ring.push([center.lng + dLng, center.lat + dLat]);
  }
  return { type: 'Polygon', coordinates: [ring] };
}

async function createGeofence(lat, lng) {
  const name = `console ${new Date().toISOString().slice(11, 19)}`;
  const fence = await api('POST', '/v2/geofence/create', { fence_type: 'circle', center: { lat, lng }, radius_m: 250, name });
  await showGeofences();
  status(`Geofence ${fence.id} created (${fence.cell_count} cells)`);
}

async function showGeofences() {
  const fences = (await api('GET', '/v2/geofence?limit=100')).items ?? [];
  const features = fences.map((f) => ({ type: 'Feature', properties: { name: f.name }, geometry: f.fence_type === 'circle' ? circle(f.center, f.radius_m) : f.polygon })).filter((f) => f.geometry);
  setGeoJson('geofences', { type: 'FeatureCollection', features }, { 'fill-color': 'rgba(0,128,0,0.3)', 'fill-outline-color': '#060' }, 'fill');
  const items = list(fences, (f) => `${f.name ?? f.id}: ${f.fence_type}${f.radius_m ? ` ${f.radius_m} m` : ''}, ${f.cell_count} cells`);
  items.id = 'geofence-list';
  show(`Geofences (${fences.length})`, items);
}

async function reportIncident(lat, lng) {
  const incident = await api('POST', '/v2/route/incidents', { kind: 'accident', lat, lng });
  await showIncidents();
  status(`Incident ${incident.id} reported`);
}

async function showIncidents() {
  const incidents = (await api('GET', '/v2/route/incidents')).incidents ?? [];
  const features = incidents.map((i) => ({ type: 'Feature', properties: { kind: i.kind }, geometry: { type: 'Point', coordinates: [i.lng, i.lat] } }));
  setGeoJson('incidents', { type: 'FeatureCollection', features }, { 'circle-radius': 7, 'circle-color': '#e67e00', 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 }, 'circle');
  const items = list(incidents, (i) => `${i.kind} at ${i.lat.toFixed(4)}, ${i.lng.toFixed(4)}: ${i.corroborations} report(s), until ${i.expires_at.slice(11, 16)} UTC${i.blocks_routes ? ', blocks routes' : ''}`);
  items.id = 'incident-list';
  show(`Incidents (${incidents.length})`, items);
}

async function showWeather() {
  const data = await api('GET', '/v2/weather/alerts');
  setGeoJson('weather', data, { 'fill-color': 'rgba(120,0,200,0.25)', 'fill-outline-color': '#5a0096' }, 'fill');
  const items = list(data.features ?? [], (f) => `${f.properties.severity} ${f.properties.event}: ${f.properties.headline ?? f.properties.areas.join(', ')} (until ${f.properties.expires.slice(0, 16).replace('T', ' ')} UTC; ${f.properties.signature})`);
  items.id = 'weather-list';
  show(`Weather alerts (${data.features?.length ?? 0})`, items);
}

const GENESIS = '0'.repeat(64);

/** Keys sorted at every level, as the service hashes an access entry (docs/adr/0004). */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  return JSON.stringify(value);
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const LINK_FIELDS = new Set(['seq', 'prev_hash', 'hash']);

function base64UrlBytes(text) {
  const binary = atob(String(text).replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The browser can verify Ed25519 with WebCrypto (Chromium 137+, Firefox 129+, Safari 17+); older ones cannot. */
async function ed25519Supported() {
  try {
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
    return Boolean(pair.publicKey);
  } catch {
    return false;
  }
}

/** A checkpoint's compact JWS (EdDSA, Ed25519), verified with the JWKS key its header names; returns its claims. */
async function verifyCheckpoint(token, keys) {
  const parts = String(token).split('.');
  if (parts.length !== 3) throw new Error('not a compact JWS');
  const header = JSON.parse(new TextDecoder().decode(base64UrlBytes(parts[0])));
  if (header.alg !== 'EdDSA') throw new Error(`unexpected alg ${header.alg}`);
  const jwk = keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`kid ${header.kid} is not in the JWKS`);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  const ok = await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, base64UrlBytes(parts[2]), new TextEncoder().encode(`${parts[0]}.${parts[1]}`));
  if (!ok) throw new Error('signature does not verify');
  return JSON.parse(new TextDecoder().decode(base64UrlBytes(parts[1])));
}

/**
 * An export bundle (GET /v2/admin/audit/export) checked in the page, as
 * tools/verify-audit-bundle.mjs checks it: the signed checkpoints against the
 * service's JWKS (GET /v2/.well-known/jwks.json), then every entry's link and
 * recomputed hash from the signed anchor (or the genesis), then each
 * checkpoint against the entry it covers (a checkpoint beyond the last entry
 * means the trail was truncated). A browser without Ed25519 checks the chain
 * and says the signatures were not checked.
 */
async function verifyBundle(bundle, jwks) {
  const keys = Array.isArray(jwks?.keys) ? jwks.keys : [];
  const tokens = [...(bundle.anchor ? [bundle.anchor.token] : []), ...(bundle.checkpoints ?? []).map((c) => c.token)];
  const canVerify = tokens.length === 0 || (await ed25519Supported());
  const signed = [];
  if (canVerify) {
    for (const [index, token] of tokens.entries()) {
      let claims;
      try {
        claims = await verifyCheckpoint(token, keys);
      } catch (error) {
        return `broken: checkpoint #${index}: ${error.message}`;
      }
      if (claims.typ !== 'audit-checkpoint' || claims.stream !== bundle.stream) return `broken: checkpoint #${index} signs ${claims.stream}, not ${bundle.stream}`;
      signed.push(claims);
    }
  }
  let expectedSeq = 0;
  let expectedPrev = GENESIS;
  if (bundle.anchor) {
    if (canVerify && (signed[0].seq !== bundle.anchor.seq || signed[0].hash !== bundle.anchor.hash)) return 'broken: the anchor does not match its signature';
    expectedSeq = bundle.anchor.seq + 1;
    expectedPrev = bundle.anchor.hash;
  }
  const bySeq = new Map();
  for (const entry of bundle.entries) {
    const { seq, prev_hash, hash } = entry;
    const content = Object.fromEntries(Object.entries(entry).filter(([field]) => !LINK_FIELDS.has(field)));
    if (seq !== expectedSeq) return `broken at seq ${seq}: expected seq ${expectedSeq}`;
    if (prev_hash !== expectedPrev) return `broken at seq ${seq}: does not link to the entry before it`;
    if ((await sha256Hex(`${prev_hash}\n${seq}\n${canonicalJson(content)}`)) !== hash) return `broken at seq ${seq}: hash mismatch (edited)`;
    bySeq.set(seq, hash);
    expectedSeq = seq + 1;
    expectedPrev = hash;
  }
  const lastSeq = expectedSeq - 1;
  for (const claims of signed.slice(bundle.anchor ? 1 : 0)) {
    if (claims.seq > lastSeq) return `broken: truncated, a checkpoint signed at ${claims.signed_at} covers seq ${claims.seq} but the entries end at seq ${lastSeq}`;
    if (bySeq.has(claims.seq) && bySeq.get(claims.seq) !== claims.hash) return `broken at seq ${claims.seq}: differs from the checkpoint signed at ${claims.signed_at}`;
  }
  const checkpoints = bundle.checkpoints?.length ?? 0;
  // An export signs its newest entry (issue 30): a tail past the last signature is named, not hidden.
  const covered = signed.length > 0 ? Math.max(...signed.map((c) => c.seq)) : -1;
  const tail = canVerify && lastSeq > covered ? `; the newest ${lastSeq - covered} entries are after the last checkpoint` : canVerify && lastSeq >= 0 ? '; signed to its last entry' : '';
  return canVerify
    ? `intact (${bundle.entries.length} entries, ${checkpoints} signed checkpoint(s) verified${tail})`
    : `chain intact (${bundle.entries.length} entries); ${checkpoints} signed checkpoint(s) NOT checked: this browser cannot verify Ed25519 (use tools/verify-audit-bundle.mjs)`;
}

async function showAudit(accountId) {
  const id = accountId.trim();
  const [page, bundle, jwks] = await Promise.all([
    api('GET', `/v2/admin/audit?account_id=${encodeURIComponent(id)}&limit=50`),
    api('GET', `/v2/admin/audit/export?account_id=${encodeURIComponent(id)}`),
    api('GET', '/v2/.well-known/jwks.json'),
  ]);
  const chain = Object.assign(document.createElement('p'), { id: 'chain-status', textContent: `Chain ${bundle.stream}: ${await verifyBundle(bundle, jwks)}` });
  const items = list(page.items, (e) => `${e.at.slice(0, 19).replace('T', ' ')} ${e.method} ${e.path} ${e.status}`);
  items.id = 'audit-list';
  show(`Audit trail of ${id} (${page.items.length}${page.next_cursor ? '+' : ''})`, chain, items);
}

async function search(text) {
  const data = await api('GET', `/v2/search?q=${encodeURIComponent(text)}&limit=10`);
  const results = data.items ?? [];
  const items = list(results, (r) => `${r.name}${r.kind ? ` (${r.kind})` : ''}${r.district ? `, ${r.district}` : ''}`);
  items.id = 'search-results';
  const nodes = [items];
  if (data.did_you_mean) nodes.unshift(Object.assign(document.createElement('p'), { id: 'did-you-mean', textContent: `Did you mean: ${data.did_you_mean}?` }));
  if (results.length === 0) nodes.push('No result.');
  show(`Search: ${data.query}`, ...nodes);
  const features = results.map((r) => ({ type: 'Feature', properties: { name: r.name }, geometry: { type: 'Point', coordinates: [r.lng, r.lat] } }));
  setGeoJson('search', { type: 'FeatureCollection', features }, { 'circle-radius': 6, 'circle-color': '#0060df', 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 }, 'circle');
  if (results[0]) state.map.flyTo({ center: [results[0].lng, results[0].lat], zoom: 15 });
}

function guard(fn) {
  return (event) => {
    event?.preventDefault?.();
    fn().catch((error) => status(error.message, true));
  };
}

const started = start().catch((error) => status(error.message, true));

$('key-form').addEventListener('submit', guard(async () => {
  state.key = $('key').value.trim();
  if (!state.key) return askForKey('This console');
  $('key-needed').hidden = true;
  status('Key set.');
  // The calls that were waiting for it go on.
  for (const resolve of state.keyWaiters.splice(0)) resolve();
  await started;
  if (state.map && !state.basemap) await keyedBasemap();
}));
$('signup-form').addEventListener('submit', guard(async () => {
  const response = await fetch('/v2/self/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: $('signup-name').value, email: $('signup-email').value }) });
  const json = await response.json();
  if (!response.ok) throw new Error(json?.error?.message ?? `${response.status}`);
  $('key').value = json.data?.key ?? json.data?.api_key ?? '';
  status('Signed up: your key is in the key field (shown once; keep it).');
}));
$('search-form').addEventListener('submit', guard(() => search($('search').value)));
$('show-geofences').addEventListener('click', guard(showGeofences));
$('show-incidents').addEventListener('click', guard(showIncidents));
$('show-weather').addEventListener('click', guard(showWeather));
$('audit-form').addEventListener('submit', guard(() => showAudit($('audit-account').value)));
