// The developer console: calls the public API with the key the user enters. No secrets live here.
import * as maplibregl from '/console/assets/maplibre-gl.mjs';

const $ = (id) => document.getElementById(id);
const state = { key: '', map: null, clicks: [] };
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

async function api(method, url, body) {
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

async function basemapStyle() {
  const protocol = new pmtiles.Protocol();
  maplibregl.addProtocol('pmtiles', protocol.tile);
  const style = {
    version: 8,
    sources: {},
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f2efe9' } }],
  };
  let archives = [];
  try {
    archives = await api('GET', '/v2/tiles');
    if (!Array.isArray(archives)) archives = archives.archives ?? archives.items ?? [];
  } catch {
    archives = [];
  }
  const chosen = archives.find((a) => a.name === 'starter') ?? archives[0];
  if (chosen) {
    const source = new pmtiles.PMTiles(new pmtiles.FetchSource(`${location.origin}/v2/tiles/${chosen.name}`, new Headers({ 'x-api-key': state.key })));
    protocol.add(source);
    const metadata = await source.getMetadata().catch(() => ({}));
    const layerIds = (metadata.vector_layers ?? []).map((layer) => layer.id);
    style.sources.basemap = { type: 'vector', url: `pmtiles://${location.origin}/v2/tiles/${chosen.name}`, attribution: ATTRIBUTION };
    for (const layer of layerIds) {
      style.layers.push({ id: `${layer}-fill`, type: 'fill', source: 'basemap', 'source-layer': layer, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#dde8d0' } });
      style.layers.push({ id: `${layer}-line`, type: 'line', source: 'basemap', 'source-layer': layer, filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': '#b06a2c', 'line-width': 1.5 } });
      style.layers.push({ id: `${layer}-point`, type: 'circle', source: 'basemap', 'source-layer': layer, filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 3, 'circle-color': '#345' } });
    }
  }
  return { style, chosen };
}

async function start() {
  status('Loading the map…');
  const { style, chosen } = await basemapStyle();
  const map = new maplibregl.Map({ container: 'map', style, center: STARTER_CENTER, zoom: 14, attributionControl: false, preserveDrawingBuffer: true });
  map.addControl(new maplibregl.AttributionControl({ compact: false, customAttribution: ATTRIBUTION }));
  map.addControl(new maplibregl.NavigationControl());
  state.map = map;
  map.on('click', (event) => onClick(event.lngLat).catch((error) => status(error.message, true)));
  await new Promise((resolve) => (map.loaded() ? resolve() : map.once('load', resolve)));
  $('tools').hidden = false;
  status(chosen ? `Basemap: ${chosen.name}. Click the map.` : 'No basemap archive on this server; click the map anyway.');
  document.body.dataset.ready = 'true';
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
  const data = await api('POST', '/v2/route', { from, to, narration: 'landmark' });
  const best = data.routes?.[0] ?? data.route ?? data;
  if (best.geometry) setGeoJson('route', { type: 'Feature', properties: {}, geometry: best.geometry }, { 'line-color': '#0060df', 'line-width': 4 });
  const steps = best.steps ?? best.legs?.flatMap((leg) => leg.steps ?? []) ?? [];
  show(`Route ${best.distance_m ?? ''} m`, list(steps, (step) => [step.instruction ?? step.text ?? step.maneuver?.type, step.landmark?.name ? `(at ${step.landmark.name})` : ''].join(' ')));
}

async function transit(from, to) {
  const data = await api('POST', '/v2/route/transit', { from, to });
  if (!data.itineraries?.length) return show('Transit', data.note ?? 'No transit itinerary.');
  show('Transit itineraries', list(data.itineraries, (it) => (it.legs ?? []).map((leg) => `${leg.mode}${leg.route_short_name ? ' ' + leg.route_short_name : ''}`).join(' → ')));
}

async function createGeofence(lat, lng) {
  const fence = await api('POST', '/v2/geofence/create', { fence_type: 'circle', center: { lat, lng }, radius_m: 250, name: 'console' });
  status(`Geofence ${fence.id ?? ''} created`);
  await showGeofences();
}

async function showGeofences() {
  const data = await api('GET', '/v2/geofence');
  const fences = data.items ?? data.geofences ?? (Array.isArray(data) ? data : []);
  const features = fences.filter((f) => f.center).map((f) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [f.center.lng, f.center.lat] } }));
  setGeoJson('geofences', { type: 'FeatureCollection', features }, { 'circle-radius': 10, 'circle-color': 'rgba(0,128,0,0.4)' }, 'circle');
  show('Geofences', list(fences, (f) => `${f.name ?? f.id} (${f.fence_type})`));
}

async function reportIncident(lat, lng) {
  await api('POST', '/v2/route/incidents', { kind: 'accident', lat, lng });
  status('Incident reported');
  await showIncidents();
}

async function showIncidents() {
  const data = await api('GET', '/v2/route/incidents');
  const incidents = data.items ?? data.incidents ?? (Array.isArray(data) ? data : []);
  const features = incidents.filter((i) => i.lat !== undefined).map((i) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [i.lng, i.lat] } }));
  setGeoJson('incidents', { type: 'FeatureCollection', features }, { 'circle-radius': 6, 'circle-color': '#e67e00' }, 'circle');
  show('Incidents', list(incidents, (i) => `${i.kind} ${i.reports ?? ''}`));
}

async function showWeather() {
  const data = await api('GET', '/v2/weather/alerts');
  setGeoJson('weather', data, { 'fill-color': 'rgba(120,0,200,0.25)' }, 'fill');
  show('Weather alerts', list(data.features ?? [], (f) => f.properties?.headline ?? f.properties?.event ?? 'alert'));
}

async function showAudit(accountId) {
  const data = await api('GET', `/v2/admin/audit?account_id=${encodeURIComponent(accountId)}&limit=50`);
  const entries = data.items ?? data.entries ?? [];
  const chain = data.chain ?? data.chain_status ?? data.verification;
  show(`Audit trail (${entries.length})`, `Chain: ${chain === undefined ? 'not reported' : typeof chain === 'object' ? JSON.stringify(chain) : chain}`, list(entries, (e) => `${e.at ?? e.timestamp ?? ''} ${e.method ?? ''} ${e.path ?? e.route ?? ''} ${e.status ?? ''}`));
}

async function search(text) {
  const data = await api('GET', `/v2/search?q=${encodeURIComponent(text)}`);
  const results = data.results ?? data.items ?? [];
  const nodes = [list(results, (r) => `${r.name} ${r.lat !== undefined ? `(${r.lat.toFixed(4)}, ${r.lng.toFixed(4)})` : ''}`)];
  if (data.did_you_mean) nodes.unshift(`Did you mean: ${data.did_you_mean}?`);
  show('Search', ...nodes);
  const first = results.find((r) => r.lat !== undefined);
  if (first) state.map.flyTo({ center: [first.lng, first.lat], zoom: 15 });
}

function guard(fn) {
  return (event) => {
    event?.preventDefault?.();
    fn().catch((error) => status(error.message, true));
  };
}

$('key-form').addEventListener('submit', guard(async () => {
  state.key = $('key').value.trim();
  if (!state.map) await start();
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
