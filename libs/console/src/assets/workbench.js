// The compliance workbench (issue 51): a banking account's compliance staff reconstruct a customer's history, see who
// looked, export and verify, without a terminal. Every call is an ordinary /v2 call under the signed-in identity (its
// personal token or key), audited like any other: the page holds no data of its own and shows nothing the API would not.
// Plain JavaScript, no build step; nothing is written to storage; text only through textContent (no HTML from data).
import * as maplibregl from '/workbench/assets/maplibre-gl.mjs';
import { verdictLine, verifyBundle, verifyBundleFile, verifyCustomerCopy, verifySigned, textOf, unwrap } from '/workbench/assets/workbench-verify.js';

const $ = (id) => document.getElementById(id);
const CUSTOMER_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Location-history pages of the customer's copy read on opening (each is one of the account's hourly copies). */
const HISTORY_PAGES = 3;
const COPY_LIMIT = 1000;
const ACCESS_PAGE = 50;
const POSITIONS_LISTED = 20;

const state = {
  key: '',
  me: null,
  principal: null,
  jwks: null,
  ed25519: null,
  /** key prefix → { kind, user_id } from the account's as-of changes (ApiKeyIssued). */
  owners: new Map(),
  consentsCursor: null,
  consentRecords: new Map(),
  customer: null,
  entries: [],
  instant: null,
  asOfCache: new Map(),
  access: { cursors: [undefined], page: 0, next: null, items: [] },
  map: null,
  lastExport: null,
  loads: 0,
};
// For scripts in the page (and the browser test): the state and the map.
window.workbench = state;

// ——— Times: shown in Africa/Accra, UTC on hover ———

const ACCRA = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Accra', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
const ACCRA_DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Accra', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const ACCRA_PARTS = new Intl.DateTimeFormat('en-US', { timeZone: 'Africa/Accra', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

function accraText(iso) {
  return ACCRA.format(new Date(iso));
}

function utcText(iso) {
  return `${new Date(iso).toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

/** A <time> in Accra time with the UTC instant on hover. */
function timeEl(iso) {
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = accraText(iso);
  time.title = utcText(iso);
  return time;
}

/** Accra's offset from UTC at an instant, in ms (0 since 1918, but asked of the time zone database, not assumed). */
function accraOffset(date) {
  const parts = Object.fromEntries(ACCRA_PARTS.formatToParts(date).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

function accraDay(iso) {
  const date = new Date(iso);
  return new Date(date.getTime() + accraOffset(date)).toISOString().slice(0, 10);
}

/** A datetime-local value read as Accra wall time → ISO UTC; undefined when empty, null when unreadable. */
function accraInputToIso(value) {
  if (!value) return undefined;
  const guess = Date.parse(`${value.length === 16 ? `${value}:00` : value}Z`);
  if (Number.isNaN(guess)) return null;
  return new Date(guess - accraOffset(new Date(guess))).toISOString();
}

function isoToAccraInput(iso) {
  const date = new Date(iso);
  return new Date(date.getTime() + accraOffset(date)).toISOString().slice(0, 19);
}

// ——— Small DOM helpers ———

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (name === 'class') node.className = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name in node) node[name] = value;
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

function status(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : '';
}

/** A notice box: its text, and a class saying what kind of state it is (empty, refused, erased, warn). */
function notice(id, kind, ...content) {
  const box = $(id);
  box.className = `notice${kind ? ` ${kind}` : ''}`;
  box.replaceChildren(...content.map((item) => (typeof item === 'string' ? document.createTextNode(item) : item)));
}

function verdictEl(result, okText) {
  if (result === null) return el('span', { class: 'hint' }, 'signature not checked: this browser cannot verify Ed25519 (use the offline tools)');
  return result.ok ? el('span', { class: 'ok' }, `✓ ${okText(result)}`) : el('span', { class: 'bad' }, `✗ ${result.error}`);
}

/** Work under way (nested calls count once): `data-busy` on the body, and `data-loads` counts the finished ones, for scripts and tests. */
let depth = 0;
function busy(on) {
  depth = Math.max(0, depth + (on ? 1 : -1));
  document.body.dataset.busy = depth > 0 ? 'true' : 'false';
  if (!on && depth === 0) document.body.dataset.loads = String(++state.loads);
}

// ——— The API, under the signed-in identity ———

class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** One /v2 call with the signed-in token or key; answers `data`, or throws ApiError with the envelope's code. */
async function api(method, url, body, key = state.key) {
  const headers = { 'x-api-key': key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service could not be reached (${error.message})`);
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const code = json?.error?.code ?? `HTTP_${response.status}`;
    throw new ApiError(response.status, code, json?.error?.message ?? `${response.status}`, response.headers.get('retry-after'));
  }
  return json?.data ?? json;
}

/** What a refusal means for the person reading the page. */
function explain(error) {
  if (!(error instanceof ApiError)) return error.message;
  const tag = `(${error.status} ${error.code})`;
  switch (error.code) {
    case 'INVALID_API_KEY':
    case 'MISSING_API_KEY':
      return `Your sign-in is not valid (any more) ${tag}: sign in again.`;
    case 'INVALID_CREDENTIALS':
      return `That e-mail address and password do not match ${tag}.`;
    case 'BANKING_ACCESS_REQUIRED':
      return `No access: this account is not provisioned for the banking features, which the compliance calls need ${tag}.`;
    case 'IP_NOT_ALLOWED':
      return `No access from this address: it is outside your account's allowlist ${tag}.`;
    case 'ACCOUNT_MISMATCH':
      return `Refused by the API ${tag}: that is another account's. You can open only your own account's customers.`;
    case 'ACCOUNT_KEY_REQUIRED':
      return `This key belongs to no account ${tag}: sign in with a personal token or an account key.`;
    case 'RATE_LIMITED':
      return `Too many requests ${tag}${error.retryAfter ? `: try again in ${error.retryAfter} s` : ''}. ${error.message}`;
    default:
      return `${error.message} ${tag}`;
  }
}

// ——— Signing in ———

async function signIn(key) {
  busy(true);
  try {
    const me = await api('GET', '/v2/me', undefined, key);
    state.key = key;
    state.me = me;
    await afterSignIn();
  } finally {
    busy(false);
  }
}

async function afterSignIn() {
  $('sign-in').hidden = true;
  $('workspace').hidden = false;
  $('sign-out').hidden = false;
  const [jwks, ed25519] = await Promise.all([fetch('/v2/.well-known/jwks.json').then((response) => response.json()), ed25519Supported()]);
  state.jwks = unwrap(jwks);
  state.ed25519 = ed25519;
  let bankingNote = '';
  try {
    const now = await asOf(new Date().toISOString());
    learnOwners(now);
  } catch (error) {
    bankingNote = ` ${explain(error)}`;
  }
  const principal = state.owners.get(state.me.key_prefix);
  state.principal = principal ?? { kind: 'key' };
  const who = principal?.kind === 'personal' ? `personal token ${state.me.key_prefix} of user ${principal.user_id}` : `key ${state.me.key_prefix}`;
  $('identity').hidden = false;
  $('identity').textContent = `Signed in to ${state.me.name ?? state.me.account_id} (${state.me.account_id}) with ${who}. Every call is audited under it.`;
  await loadCustomers(true).catch((error) => status(explain(error), true));
  status(`Signed in.${bankingNote} Open a customer.`, Boolean(bankingNote));
  // A link that named a customer (#customer=…) opens it now.
  if (hashCustomer()) await openFromHash();
  else $('customer-id').focus();
}

function learnOwners(asOfAnswer) {
  for (const change of asOfAnswer.changes ?? []) {
    const summary = change.summary ?? {};
    if (change.type === 'ApiKeyIssued' && typeof summary.key_prefix === 'string') state.owners.set(summary.key_prefix, { kind: summary.kind ?? 'account', user_id: summary.user_id ?? null });
  }
  for (const [prefix, key] of Object.entries(asOfAnswer.state?.keys ?? {})) if (!state.owners.has(prefix)) state.owners.set(prefix, { kind: key.kind ?? 'account', user_id: null });
  const select = $('access-who');
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '' }, 'Anyone'), ...[...state.owners].map(([prefix]) => el('option', { value: prefix }, ownerText(prefix))));
  select.value = chosen;
}

function ownerText(prefix, kind) {
  const owner = state.owners.get(prefix);
  if (kind === 'admin') return `the operator (${prefix})`;
  if (owner?.kind === 'personal') return `${owner.user_id ?? 'a user'} (personal token ${prefix})`;
  if (owner) return `account key ${prefix}`;
  return kind === 'user' ? `a user (token ${prefix})` : `key ${prefix}`;
}

async function ed25519Supported() {
  try {
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
    return Boolean(pair.publicKey);
  } catch {
    return false;
  }
}

function signOut() {
  // A personal token is left to expire (DELETE /v2/me/key would revoke it everywhere, also in other tabs); the page forgets it.
  location.hash = '';
  location.reload();
}

// ——— Customers of the account (GET /v2/consents) ———

async function loadCustomers(first) {
  if (first) {
    state.consentsCursor = null;
    state.consentRecords.clear();
    $('customer-list').replaceChildren();
    $('customer-options').replaceChildren();
  }
  const page = await api('GET', `/v2/consents?limit=100${state.consentsCursor ? `&cursor=${encodeURIComponent(state.consentsCursor)}` : ''}`);
  let erased = 0;
  for (const record of page.items ?? []) {
    if (!record.customer_id) {
      erased++;
      continue;
    }
    state.consentRecords.set(record.customer_id, record);
    const button = el('button', { type: 'button', dataset: { customer: record.customer_id } }, record.customer_id, el('span', { class: 'status' }, record.status));
    button.addEventListener(
      'click',
      guard(() => {
        selectTab('story');
        return goToCustomer(record.customer_id);
      }),
    );
    $('customer-list').append(el('li', {}, button));
    $('customer-options').append(el('option', { value: record.customer_id }));
  }
  if (erased > 0) $('customer-list').append(el('li', { class: 'hint' }, `${erased} erased record(s): their ids are no longer held.`));
  if ($('customer-list').children.length === 0) $('customer-list').append(el('li', { class: 'hint' }, 'No consent recorded under this account yet.'));
  state.consentsCursor = page.next_cursor ?? null;
  $('customers-more').hidden = !state.consentsCursor;
}

/** Opens a customer and names it in the address (#customer=…), so the view can be linked to; no hashchange is raised. */
async function goToCustomer(id, account) {
  history.replaceState(null, '', `#customer=${encodeURIComponent(id)}${account ? `&account=${encodeURIComponent(account)}` : ''}`);
  await openFromHash();
}

function hashCustomer() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get('customer');
  return id ? { id, account: params.get('account') ?? undefined } : null;
}

async function openFromHash() {
  const wanted = hashCustomer();
  if (!wanted || !state.me) return;
  $('customer-id').value = wanted.id;
  await openCustomer(wanted.id, wanted.account).catch((error) => {
    status(explain(error), true);
    notice('story-state', 'refused', explain(error));
  });
}

// ——— Opening a customer ———

function resetViews() {
  state.customer = null;
  state.entries = [];
  state.access = { cursors: [undefined], page: 0, next: null, items: [] };
  $('timeline').replaceChildren();
  $('story-summary').replaceChildren();
  $('history-more').hidden = true;
  $('asof-facts').replaceChildren();
  $('asof-positions').tBodies[0].replaceChildren();
  $('access-table').tBodies[0].replaceChildren();
  $('copy-download').disabled = true;
  $('copy-print').disabled = true;
  $('copy-result').textContent = '';
  state.instant = null;
  $('asof-changes').hidden = true;
  drawPositions([], null, []);
}

async function openCustomer(id, account) {
  resetViews();
  if (!CUSTOMER_ID.test(id)) {
    notice('story-state', 'empty', `"${id}" is not a customer id: 1-128 letters, digits, ".", "_", ":" or "-".`);
    return;
  }
  busy(true);
  try {
    if (account && account !== state.me.account_id) return await openOtherAccount(id, account);
    status(`Opening ${id}…`);
    notice('story-state', '', `Loading ${id}…`);
    const now = new Date().toISOString();
    const [copy, consent, current] = await Promise.all([
      api('POST', '/v2/consent/access-request', { customer_id: id, limit: COPY_LIMIT }),
      api('GET', `/v2/consent/status?customer_id=${encodeURIComponent(id)}`),
      asOf(now).catch((error) => error),
    ]);
    if (!(current instanceof Error)) learnOwners(current);
    const customer = {
      id,
      copy,
      consent,
      history: [...copy.document.location_history.items],
      historyCursor: copy.document.location_history.next_cursor,
      changes: current instanceof Error ? [] : current.changes ?? [],
      asOfError: current instanceof Error ? current : null,
      copyVerdict: null,
    };
    state.customer = customer;
    for (let page = 1; page < HISTORY_PAGES && customer.historyCursor; page++) await moreHistory();
    customer.copyVerdict = state.ed25519 ? await verifyCustomerCopy(copy, state.jwks) : null;
    await renderStory();
    $('copy-download').disabled = false;
    $('copy-print').disabled = false;
    await replay(now);
    await loadAccess(true);
    status(`${id}: ${state.entries.length} timeline entries.`);
    $('story-title').focus();
  } finally {
    busy(false);
  }
}

/** A link naming another account's customer: the replay is asked for with that account, and the API refuses it. */
async function openOtherAccount(id, account) {
  try {
    await api('GET', `/v2/compliance/as-of?at=${new Date().toISOString()}&account_id=${encodeURIComponent(account)}`);
    notice('story-state', 'refused', `The API did not refuse ${account}; this page opens only your own account's customers.`);
  } catch (error) {
    const text = `Customer ${id} of account ${account} is not reachable: ${explain(error)}`;
    notice('story-state', 'refused', text);
    notice('asof-state', 'refused', text);
    notice('access-state', 'refused', text);
    status(text, true);
  }
}

async function moreHistory() {
  const customer = state.customer;
  const page = await api('POST', '/v2/consent/access-request', { customer_id: customer.id, limit: COPY_LIMIT, cursor: customer.historyCursor });
  customer.history.push(...page.document.location_history.items);
  customer.historyCursor = page.document.location_history.next_cursor;
}

// ——— 1. The customer's story ———

const RANK = { consent_granted: 0, zone_registered: 1, geofence_created: 1, loan_registered: 1, schedule: 1, pings: 2, drift_started: 3, drift_ended: 3, geofence_entered: 3, verification: 4, webhook: 5, consent_revoked: 6, data_erased: 7, other: 8 };

/** The timeline's entries from the customer's copy (and the account's changes naming the customer), oldest first. */
async function buildEntries(customer) {
  const document_ = customer.copy.document;
  const entries = [];
  const copySigned = customer.copyVerdict;
  const inCopy = () => verdictEl(copySigned, (v) => `in the customer's copy, whose signature verifies (kid ${v.kid})`);
  const record = state.consentRecords.get(customer.id);
  for (const event of document_.consents ?? []) {
    const data = event.data ?? {};
    if (event.type === 'ConsentGranted') {
      const notice_ = data.notice ?? (customer.consent?.consent_id === data.consent_id ? customer.consent.notice : null);
      const channel = data.channel ?? (customer.consent?.consent_id === data.consent_id ? customer.consent.channel : null) ?? 'unspecified';
      const receiptIds = record?.consent_id === data.consent_id ? record.receipt_ids : null;
      const evidence = [inCopy()];
      if (event.receipt?.token) evidence.push(await receiptEvidence(event.receipt.token));
      else if (receiptIds?.length) evidence.push(el('span', { class: 'hint' }, ` Receipts issued to the customer: ${receiptIds.join(', ')} (kept by the customer, not by the service).`));
      entries.push({
        kind: 'consent_granted',
        at: event.at,
        what: 'Consent granted',
        text: `${data.purpose ?? 'unspecified purpose'}, scope ${(data.scope ?? []).join(', ') || 'unspecified'}; channel ${channel}; notice ${notice_ ? `${notice_.version ?? 'unspecified'} (${notice_.language ?? 'unspecified'})${notice_.sha256 ? ` sha256 ${notice_.sha256.slice(0, 12)}…` : ''}` : 'unspecified'}${data.consent_id ? `; consent ${data.consent_id}` : ''}`,
        evidence,
        raw: event,
      });
    } else if (event.type === 'ConsentRevoked') {
      entries.push({ kind: 'consent_revoked', at: event.at, what: 'Consent revoked', text: 'collection stopped', evidence: [inCopy(), ...(event.receipt?.token ? [await receiptEvidence(event.receipt.token)] : [])], raw: event });
    } else if (event.type === 'CustomerDataErased') {
      entries.push({ kind: 'data_erased', at: event.at, what: 'Location data erased', text: `by ${data.erased_by ?? '?'}: ${data.events_erased ?? '?'} events destroyed (pings, zone, drift and geofence events)`, evidence: [inCopy()], raw: event });
    } else if (event.type !== 'ConsentRecordSealed') {
      entries.push({ kind: 'other', at: event.at, what: event.type, text: '', evidence: [inCopy()], raw: event });
    }
  }
  // Pings as a daily density (Accra days); everything else of the location history as it happened.
  const days = new Map();
  for (const item of customer.history) {
    if (item.type === 'PingRecorded') {
      const day = accraDay(item.recorded_at);
      if (!days.has(day)) days.set(day, []);
      days.get(day).push(item);
    } else if (item.type === 'ZoneRegistered') {
      entries.push({ kind: 'zone_registered', at: item.registered_at, what: 'Home zone registered', text: `cell ${item.home_cell}, tolerance ${item.tolerance_hops} hops`, evidence: [inCopy()], raw: item });
    } else if (item.type === 'DriftStarted') {
      entries.push({ kind: 'drift_started', at: item.occurred_at, what: 'Drift alert', text: `${item.distance_hops} hops from the home zone (cell ${item.current_cell})`, evidence: [inCopy()], raw: item });
    } else if (item.type === 'DriftEnded') {
      entries.push({ kind: 'drift_ended', at: item.occurred_at, what: 'Back in the zone', text: '', evidence: [inCopy()], raw: item });
    } else if (item.type === 'GeofenceEntered') {
      entries.push({ kind: 'geofence_entered', at: item.occurred_at, what: 'Geofence alert', text: `entered ${fenceName(item.fence_id)}${item.loan_id ? ` (loan ${item.loan_id})` : ''}`, evidence: [inCopy()], raw: item });
    } else {
      entries.push({ kind: 'other', at: item.occurred_at ?? item.recorded_at ?? item.registered_at ?? document_.generated_at, what: item.type, text: '', evidence: [inCopy()], raw: item });
    }
  }
  const busiest = Math.max(1, ...[...days.values()].map((pings) => pings.length));
  const firstGrant = (document_.consents ?? []).find((event) => event.type === 'ConsentGranted')?.at;
  for (const [day, pings] of days) {
    pings.sort((a, b) => a.recorded_at.localeCompare(b.recorded_at));
    // A fix taken before the consent was recorded, sent after it: worth a compliance officer's look.
    const early = firstGrant ? pings.filter((ping) => Date.parse(ping.recorded_at) < Date.parse(firstGrant)).length : 0;
    entries.push({
      kind: 'pings',
      at: pings[0].recorded_at,
      what: `${pings.length} ping${pings.length === 1 ? '' : 's'} recorded`,
      text: `on ${ACCRA_DAY.format(new Date(`${day}T12:00:00Z`))}${early ? `; ${early} taken before the consent was granted (sent after it)` : ''}`,
      density: { value: pings.length, max: busiest },
      evidence: [inCopy()],
      pings,
      raw: null,
    });
  }
  if (document_.location_history.unreadable > 0) entries.push({ kind: 'other', at: document_.generated_at, what: 'Unreadable location events', text: `${document_.location_history.unreadable} stored events are sealed under a destroyed key: counted, never shown`, evidence: [], raw: null });
  for (const item of document_.verifications?.items ?? []) entries.push(await verificationEntry(item, inCopy));
  for (const delivery of document_.webhook_deliveries?.items ?? []) {
    const last = delivery.attempts?.at(-1);
    entries.push({
      kind: 'webhook',
      at: last?.attempted_at ?? delivery.updated_at ?? delivery.created_at,
      what: `Webhook ${delivery.event_type}`,
      text: `${delivery.status} after ${delivery.attempt_count} attempt(s)${last?.status_code ? `, receiver answered ${last.status_code}` : ''}${delivery.abandoned_reason ? `; abandoned: ${delivery.abandoned_reason}` : ''}`,
      evidence: [inCopy()],
      raw: delivery,
    });
  }
  // From the account's replay: the fences, loans and schedules that name the customer.
  for (const change of customer.changes) {
    const summary = change.summary ?? {};
    if (summary.customer_id !== customer.id) continue;
    if (change.type === 'GeofenceCreated') entries.push({ kind: 'geofence_created', at: change.at, what: 'Geofence created', text: `${summary.name ?? summary.fence_id} (${summary.fence_type}${summary.radius_m ? `, ${summary.radius_m} m` : ''})`, evidence: [el('span', { class: 'hint' }, 'in the account replay (GET /v2/compliance/as-of)')], raw: change });
    else if (change.type === 'CollectionLoanRegistered') entries.push({ kind: 'loan_registered', at: change.at, what: 'Loan registered', text: `${summary.loan_id}`, evidence: [el('span', { class: 'hint' }, 'in the account replay')], raw: change });
    else if (/Reverification|Schedule/.test(change.type)) entries.push({ kind: 'schedule', at: change.at, what: change.type, text: summary.schedule_id ?? '', evidence: [el('span', { class: 'hint' }, 'in the account replay')], raw: change });
  }
  return entries.filter((entry) => entry.at).sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (RANK[a.kind] ?? 8) - (RANK[b.kind] ?? 8));
}

function fenceName(fenceId) {
  const change = state.customer?.changes.find((c) => c.type === 'GeofenceCreated' && c.summary?.fence_id === fenceId);
  return change?.summary?.name ? `"${change.summary.name}" (${fenceId})` : fenceId;
}

async function receiptEvidence(token) {
  const result = state.ed25519 ? await verifySigned(token, state.jwks, 'consent-receipt+jwt') : null;
  return el('span', {}, ' Receipt: ', verdictEl(result, (v) => `signature verifies (kid ${v.kid})`));
}

async function verificationEntry(item, inCopy) {
  const token = item.certificate?.token;
  const certificate = token && state.ed25519 ? await verifySigned(token, state.jwks) : token ? null : undefined;
  const evidence = [inCopy()];
  if (certificate === undefined) evidence.push(el('span', { class: 'hint' }, ' No certificate was issued for this decision.'));
  else evidence.push(el('span', {}, ' Certificate: ', verdictEl(certificate, (v) => `${v.typ}, signature verifies (kid ${v.kid})`)));
  const kind = item.type === 'AddressVerified' ? 'KYC address verification' : item.type === 'ProximityVerified' ? 'Proximity verification' : item.type;
  const distance = item.distance_m !== undefined && item.distance_m !== null ? `, ${item.distance_m} m (radius ${item.radius_m} m)` : '';
  return { kind: 'verification', at: item.verified_at ?? item.observed_at, what: kind, text: `${item.decision ?? item.result ?? ''}${distance}`, evidence, certificate, raw: item };
}

async function renderStory() {
  const customer = state.customer;
  const document_ = customer.copy.document;
  state.entries = await buildEntries(customer);
  $('story-title').textContent = `Customer's story: ${customer.id}`;
  const erasure = document_.erasure;
  const consent = customer.consent;
  const held = state.entries.length > 0;
  if (!held) notice('story-state', 'empty', `No record of customer ${customer.id} under your account (${state.me.account_id}): no consent, no location history, no verification, no webhook. Customer ids are your account's own: another account's customers cannot be opened here.`);
  else if (erasure) notice('story-state', 'erased', `Erased on ${accraText(erasure.erased_at)}: the location history was destroyed (${erasure.events_erased} events) and the webhook deliveries naming the customer are no longer listed; the consent history and the verification decisions stay, as the law requires.`);
  else if (consent?.status === 'revoked') notice('story-state', 'warn', `Consent revoked on ${accraText(consent.revoked_at)}: nothing has been collected since.`);
  else if (consent?.status === 'none') notice('story-state', 'empty', 'No consent: nothing may be collected about this customer.');
  else notice('story-state', '', `Consent granted on ${accraText(consent.granted_at)} for ${consent.purpose}.`);
  const signature = customer.copyVerdict;
  $('story-summary').replaceChildren(
    `From the customer's copy generated ${accraText(document_.generated_at)}: `,
    verdictEl(signature, (v) => `its signature verifies with this service's public keys (kid ${v.kid})`),
    customer.asOfError ? el('span', { class: 'bad' }, ` The account replay was refused: ${explain(customer.asOfError)}`) : '',
  );
  $('timeline').replaceChildren(...state.entries.map(entryEl));
  $('history-more').hidden = !customer.historyCursor;
  setupSlider();
}

function entryEl(entry, index) {
  const children = [timeEl(entry.at), ' ', el('span', { class: 'what' }, entry.what)];
  if (entry.density) children.push(el('meter', { min: 0, max: entry.density.max, value: entry.density.value, title: `${entry.density.value} of at most ${entry.density.max} a day`, 'aria-label': `${entry.density.value} pings` }));
  if (entry.text) children.push(' ', el('span', { class: 'text' }, entry.text));
  const details = el('details', {}, el('summary', {}, 'Evidence'), el('p', {}, ...entry.evidence));
  if (entry.pings) {
    details.append(positionsTable(entry.pings, 'The pings of this day'));
  } else if (entry.raw) details.append(el('pre', {}, JSON.stringify(entry.raw, null, 2)));
  children.push(details);
  return el('li', { dataset: { kind: entry.kind, at: entry.at, index: String(index) } }, ...children);
}

function positionsTable(pings, caption) {
  return el(
    'table',
    {},
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Recorded'), el('th', { scope: 'col' }, 'Latitude'), el('th', { scope: 'col' }, 'Longitude'), el('th', { scope: 'col' }, 'Accuracy'))),
    el('tbody', {}, ...pings.map((ping) => el('tr', {}, el('td', {}, timeEl(ping.recorded_at)), el('td', {}, ping.lat.toFixed(5)), el('td', {}, ping.lng.toFixed(5)), el('td', {}, ping.accuracy_m === null || ping.accuracy_m === undefined ? 'not given' : `${ping.accuracy_m} m`)))),
  );
}

// ——— 2. As of an instant ———

async function asOf(at) {
  if (state.asOfCache.has(at)) return state.asOfCache.get(at);
  const answer = await api('GET', `/v2/compliance/as-of?at=${encodeURIComponent(at)}`);
  state.asOfCache.set(at, answer);
  return answer;
}

/** The instants of the slider: each timeline entry's, then now. */
function setupSlider() {
  const slider = $('asof-slider');
  slider.max = String(state.entries.length);
  slider.value = String(state.entries.length);
  slider.disabled = state.entries.length === 0;
}

function sliderInstant(index) {
  return index < state.entries.length ? state.entries[index].at : new Date().toISOString();
}

/** Consent intervals from the copy's consent events: [granted_at, revoked_at or ∞). */
function grantedIntervals(customer) {
  const intervals = [];
  let open = null;
  for (const event of customer.copy.document.consents ?? []) {
    if (event.type === 'ConsentGranted' && open === null) open = Date.parse(event.at);
    if (event.type === 'ConsentRevoked' && open !== null) {
      intervals.push([open, Date.parse(event.at)]);
      open = null;
    }
  }
  if (open !== null) intervals.push([open, Infinity]);
  return intervals;
}

async function replay(at) {
  const customer = state.customer;
  if (!customer) return;
  const previous = state.instant;
  state.instant = at;
  $('asof-at').value = isoToAccraInput(at);
  const index = state.entries.findIndex((entry) => Date.parse(entry.at) > Date.parse(at));
  const happened = index === -1 ? state.entries.length : index;
  $('asof-slider-value').textContent = happened === 0 ? 'Before the first entry of the timeline.' : `After entry ${happened} of ${state.entries.length}: ${state.entries[happened - 1].what}, ${accraText(state.entries[happened - 1].at)}.`;
  for (const item of $('timeline').children) item.classList.toggle('after', Date.parse(item.dataset.at) > Date.parse(at));
  let answer;
  try {
    answer = await asOf(at);
  } catch (error) {
    notice('asof-state', 'refused', explain(error));
    $('asof-facts').replaceChildren();
    drawPositions([], null, []);
    return;
  }
  const consent = answer.state?.consents?.[customer.id] ?? null;
  const facts = [];
  const fact = (term, ...value) => facts.push(el('dt', {}, term), el('dd', {}, ...value));
  fact('Instant', timeEl(answer.at));
  if (!consent) fact('Consent', 'none: no consent had been granted under this account');
  else if (consent.state === 'granted') fact('Consent', `granted for ${consent.purpose} (scope ${consent.scope.join(', ')}) since `, timeEl(consent.granted_at));
  else fact('Consent', `revoked `, timeEl(consent.revoked_at), consent.erased_at ? ' and the location data erased ' : '', consent.erased_at ? timeEl(consent.erased_at) : '');
  const fences = Object.entries(answer.state?.geofences ?? {}).filter(([, fence]) => fence.state === 'active' && (fence.customer_id === customer.id || fence.customer_id === null));
  fact('Geofences', fences.length ? fences.map(([id, fence]) => `${fence.name ?? id} (${fence.fence_type}${fence.customer_id ? '' : ', every customer'})`).join('; ') : 'none');
  const loans = Object.entries(answer.state?.collection_loans ?? {}).filter(([, loan]) => loan.customer_id === customer.id);
  fact('Loans', loans.length ? loans.map(([id]) => id).join(', ') : 'none');
  const schedules = Object.entries(answer.state?.reverification_schedules ?? {}).filter(([, schedule]) => schedule.customer_id === customer.id || schedule.schedule?.customer_id === customer.id);
  if (schedules.length) fact('Re-verification', schedules.map(([id, schedule]) => `${id} (${schedule.status})`).join('; '));
  const webhook = answer.state?.webhook;
  fact('Webhook', webhook?.url ? `${webhook.url} for ${(webhook.event_types ?? []).join(', ')}` : 'none configured');
  fact('Account', `${answer.state?.account?.tier ?? '?'} tier, banking ${answer.state?.account?.banking_access ? 'on' : 'off'}`);
  fact('Timeline', `${happened} of ${state.entries.length} entries had happened`);
  $('asof-facts').replaceChildren(...facts);

  // Where the customer was known to be: pings recorded by then, under a granted consent; none once erased.
  const erasure = customer.copy.document.erasure;
  const limit = Date.parse(at);
  const intervals = grantedIntervals(customer);
  // Known by then means received by then (a phone may send a fix hours after taking it), under a consent standing when it came.
  const receivedAt = (ping) => Date.parse(ping.received_at ?? ping.recorded_at);
  const positions = erasure
    ? []
    : customer.history
        .filter((item) => item.type === 'PingRecorded' && receivedAt(item) <= limit && intervals.some(([from, to]) => receivedAt(item) >= from && receivedAt(item) < to))
        .sort((a, b) => b.recorded_at.localeCompare(a.recorded_at));
  const body = $('asof-positions').tBodies[0];
  body.replaceChildren(...positions.slice(0, POSITIONS_LISTED).map((ping, i) => el('tr', { class: i === 0 ? 'last' : undefined }, el('td', {}, timeEl(ping.recorded_at)), el('td', {}, ping.lat.toFixed(5)), el('td', {}, ping.lng.toFixed(5)), el('td', {}, ping.accuracy_m == null ? 'not given' : `${ping.accuracy_m} m`))));
  $('asof-positions').caption.textContent = positions.length ? `Where the customer was known to be: ${positions.length} position(s) by then${positions.length > POSITIONS_LISTED ? `, the newest ${POSITIONS_LISTED} listed` : ''}; the first is the last known` : 'Where the customer was known to be: nowhere';
  if (erasure) notice('asof-state', 'erased', `Erased on ${accraText(erasure.erased_at)}: no position is held, for this instant or any other (${erasure.events_erased} events destroyed).`);
  else if (!consent) notice('asof-state', 'empty', 'No consent at this instant: nothing was collected.');
  else if (consent.state !== 'granted') notice('asof-state', 'warn', `Consent revoked at this instant (since ${accraText(consent.revoked_at)}): nothing collected after it; the positions listed were collected under it.`);
  else if (!positions.length) notice('asof-state', 'empty', 'Consent granted, but no ping had been recorded by then.');
  else notice('asof-state', '', `Consent granted at this instant; last known position recorded ${accraText(positions[0].recorded_at)}.`);
  const zone = erasure ? null : [...customer.history].reverse().find((item) => item.type === 'ZoneRegistered' && Date.parse(item.registered_at) <= limit);
  drawPositions(positions, zone?.home_cell ?? null, fences.map(([, fence]) => fence));
  await showChanges(previous, at);
}

/** The account's changes between the instant replayed before and this one (GET /v2/compliance/changes), the customer's marked. */
async function showChanges(previous, at) {
  const box = $('asof-changes');
  if (!previous || previous === at) {
    box.hidden = true;
    return;
  }
  const [from, to] = Date.parse(previous) < Date.parse(at) ? [previous, at] : [at, previous];
  let answer;
  try {
    answer = await api('GET', `/v2/compliance/changes?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  } catch (error) {
    box.hidden = false;
    $('asof-changes-title').textContent = 'What changed between the two instants';
    $('asof-changes-list').replaceChildren(el('li', { class: 'bad' }, explain(error)));
    return;
  }
  const id = state.customer.id;
  const names = (change) => change.summary?.customer_id === id || change.stream.endsWith(`:${id}`);
  const changes = answer.changes ?? [];
  box.hidden = false;
  $('asof-changes-title').textContent = `What changed in the account between ${accraText(from)} and ${accraText(to)}: ${changes.length} change(s), ${changes.filter(names).length} about ${id}`;
  $('asof-changes-list').replaceChildren(
    ...changes.map((change) => el('li', { class: names(change) ? 'mine' : undefined }, timeEl(change.at), ` ${change.context}: ${change.type}${names(change) ? ` (${id})` : ''}`)),
    ...(answer.operator_actions ?? []).map((action) => el('li', {}, timeEl(action.at), ` operator: ${action.method} ${action.path} ${action.status}`)),
  );
  if (!changes.length && !(answer.operator_actions ?? []).length) $('asof-changes-list').append(el('li', { class: 'hint' }, 'Nothing changed.'));
}

// The map: drawn when the view is first shown (MapLibre needs its container's size).
async function ensureMap() {
  if (state.map || state.mapFailed) return;
  try {
    const style = await basemapStyle();
    const map = new maplibregl.Map({ container: 'asof-map', style, center: [-0.2, 5.6], zoom: 11, attributionControl: false, preserveDrawingBuffer: true });
    map.addControl(new maplibregl.NavigationControl());
    map.addControl(new maplibregl.AttributionControl({ compact: false, customAttribution: style.sources.basemap ? '© OpenStreetMap contributors' : 'No basemap on this server' }));
    await new Promise((resolve) => (map.loaded() ? resolve() : map.once('load', resolve)));
    state.map = map;
    // The container's width follows the facts beside it: the map follows the container.
    new ResizeObserver(() => map.resize()).observe($('asof-map'));
    if (state.pending) drawPositions(...state.pending);
  } catch (error) {
    state.mapFailed = true;
    $('asof-map').replaceChildren(el('p', { class: 'notice warn' }, `The map could not be drawn here (${error.message}); the positions are listed beside it.`));
  }
}

async function basemapStyle() {
  const style = { version: 8, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f2efe9' } }] };
  let archives = [];
  try {
    archives = (await api('GET', '/v2/tiles')).items ?? [];
  } catch {
    archives = [];
  }
  const chosen = archives.find((a) => a.name === 'starter' && a.pmtiles?.tile_type === 'mvt') ?? archives.find((a) => a.pmtiles?.tile_type === 'mvt');
  if (!chosen || typeof pmtiles === 'undefined') return style;
  const protocol = new pmtiles.Protocol();
  maplibregl.addProtocol('pmtiles', protocol.tile);
  const source = new pmtiles.PMTiles(new pmtiles.FetchSource(`${location.origin}/v2/tiles/${chosen.name}`, new Headers({ 'x-api-key': state.key })));
  protocol.add(source);
  const metadata = await source.getMetadata().catch(() => ({}));
  const layers = (metadata.vector_layers ?? []).map((layer) => layer.id);
  style.sources.basemap = { type: 'vector', url: `pmtiles://${location.origin}/v2/tiles/${chosen.name}` };
  if (layers.includes('boundaries')) style.layers.push({ id: 'boundaries', type: 'line', source: 'basemap', 'source-layer': 'boundaries', paint: { 'line-color': '#b9ad94', 'line-width': 0.8 } });
  if (layers.includes('roads')) style.layers.push({ id: 'roads', type: 'line', source: 'basemap', 'source-layer': 'roads', paint: { 'line-color': '#ffffff', 'line-width': ['interpolate', ['linear'], ['zoom'], 8, 0.5, 16, 6] } }, { id: 'roads-edge', type: 'line', source: 'basemap', 'source-layer': 'roads', paint: { 'line-color': '#c9c0b0', 'line-width': 0.5 } });
  return style;
}

function circle(center, radiusM) {
  const ring = [];
  for (let i = 0; i <= 48; i++) {
    const angle = (i / 48) * 2 * Math.PI;
    ring.push([center.lng + (radiusM * Math.sin(angle)) / (111_320 * Math.cos((center.lat * Math.PI) / 180)), center.lat + (radiusM * Math.cos(angle)) / 111_320]);
  }
  return { type: 'Polygon', coordinates: [ring] };
}

function drawPositions(positions, homeCell, fences) {
  state.pending = [positions, homeCell, fences];
  const map = state.map;
  if (!map) return;
  const points = { type: 'FeatureCollection', features: positions.map((ping, i) => ({ type: 'Feature', properties: { last: i === 0 }, geometry: { type: 'Point', coordinates: [ping.lng, ping.lat] } })) };
  const areas = { type: 'FeatureCollection', features: [] };
  if (homeCell && typeof h3 !== 'undefined') areas.features.push({ type: 'Feature', properties: { kind: 'zone' }, geometry: { type: 'Polygon', coordinates: [h3.cellToBoundary(homeCell, true)] } });
  for (const fence of fences) {
    const geometry = fence.fence_type === 'circle' && fence.center ? circle(fence.center, fence.radius_m) : fence.polygon;
    if (geometry) areas.features.push({ type: 'Feature', properties: { kind: 'fence' }, geometry });
  }
  const set = (id, data, layer) => {
    if (map.getSource(id)) map.getSource(id).setData(data);
    else {
      map.addSource(id, { type: 'geojson', data });
      map.addLayer({ id, source: id, ...layer });
    }
  };
  set('areas', areas, { type: 'line', paint: { 'line-color': ['match', ['get', 'kind'], 'zone', '#1a7f37', '#8a5a00'], 'line-width': 2 } });
  set('positions', points, { type: 'circle', paint: { 'circle-radius': ['case', ['get', 'last'], 9, 5], 'circle-color': ['case', ['get', 'last'], '#b42318', '#0b5cad'], 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 } });
  const coordinates = [...points.features.map((f) => f.geometry.coordinates), ...areas.features.flatMap((f) => f.geometry.coordinates[0])];
  if (coordinates.length) {
    const lngs = coordinates.map((c) => c[0]);
    const lats = coordinates.map((c) => c[1]);
    map.fitBounds([[Math.min(...lngs), Math.min(...lats)], [Math.max(...lngs), Math.max(...lats)]], { padding: 40, maxZoom: 15, duration: 0 });
  }
}

// ——— 3. Who looked ———

async function loadAccess(first) {
  const scope = document.querySelector('input[name=access-scope]:checked').value;
  if (first) state.access = { cursors: [undefined], page: 0, next: null, items: [] };
  const from = accraInputToIso($('access-from').value);
  const to = accraInputToIso($('access-to').value);
  if (from === null || to === null) {
    notice('access-state', 'warn', 'A date could not be read: use the date and time fields.');
    return;
  }
  if (scope === 'customer' && !state.customer) {
    notice('access-state', 'empty', 'Open a customer to see who looked at them, or choose the whole account.');
    $('access-table').tBodies[0].replaceChildren();
    return;
  }
  const params = new URLSearchParams({ limit: String(ACCESS_PAGE) });
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  const cursor = state.access.cursors[state.access.page];
  if (cursor) params.set('cursor', cursor);
  const base = scope === 'customer' ? `/v2/banking/audit-log/customers/${encodeURIComponent(state.customer.id)}` : '/v2/banking/audit-log';
  let page;
  try {
    page = await api('GET', `${base}?${params}`);
  } catch (error) {
    notice('access-state', 'refused', explain(error));
    $('access-table').tBodies[0].replaceChildren();
    $('access-older').disabled = true;
    $('access-newer').disabled = true;
    return;
  }
  state.access.items = page.items ?? [];
  state.access.next = page.next_cursor ?? null;
  state.access.scope = scope;
  renderAccess();
}

function renderAccess() {
  const { items, next, page, scope } = state.access;
  const who = $('access-who').value;
  const method = $('access-method').value;
  const path = $('access-path').value.trim();
  const answer = $('access-status').value;
  const shown = items.filter((item) => (!who || item.key_prefix === who) && (!method || item.method === method) && (!path || item.path.includes(path)) && (!answer || String(item.status).startsWith(answer)));
  const rows = shown.map((item) =>
    el(
      'tr',
      { class: item.status >= 400 ? 'refused' : undefined, dataset: { requestId: item.request_id } },
      el('td', {}, timeEl(item.at)),
      el('td', { title: `${item.principal_kind}, key prefix ${item.key_prefix}` }, ownerText(item.key_prefix, item.principal_kind)),
      el('td', {}, item.client_ip),
      el('td', { class: 'path' }, `${item.method} ${item.path}`),
      el('td', {}, String(item.status)),
      el('td', {}, item.customer_id ?? ''),
      el('td', { title: `event ${item.id}` }, `#${item.seq}`),
    ),
  );
  $('access-table').tBodies[0].replaceChildren(...rows);
  const whose = scope === 'customer' ? `about ${state.customer.id}` : `of the account ${state.me.account_id}`;
  $('access-caption').textContent = `Accesses ${whose}: ${shown.length} shown of ${items.length} on page ${page + 1}, newest first`;
  if (items.length === 0) notice('access-state', 'empty', scope === 'customer' ? `Nobody has looked at ${state.customer.id} in this range (calls that name the customer in their path, query or body are counted).` : 'No access in this range.');
  else if (shown.length === 0) notice('access-state', 'empty', 'No entry of this page matches the filters; try the older pages.');
  else notice('access-state', '', '');
  $('access-page').textContent = `Page ${page + 1}`;
  $('access-newer').disabled = page === 0;
  $('access-older').disabled = !next;
}

// ——— 4. Hand it over ———

function download(name, document_) {
  const blob = new Blob([`${JSON.stringify(document_, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function stamp() {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

async function exportBundle() {
  const from = accraInputToIso($('export-from').value);
  const to = accraInputToIso($('export-to').value);
  if (from === null || to === null) throw new Error('a date could not be read');
  const params = new URLSearchParams();
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  $('export-result').textContent = 'Exporting…';
  let bundle;
  try {
    bundle = await api('GET', `/v2/banking/audit-log/export${params.size ? `?${params}` : ''}`);
  } catch (error) {
    $('export-result').replaceChildren(el('span', { class: 'bad' }, explain(error)));
    return;
  }
  state.lastExport = bundle;
  const name = `audit-bundle-${state.me.account_id}-${stamp()}.json`;
  download(name, bundle);
  const verdict = state.ed25519 ? await verifyBundle(bundle, state.jwks) : null;
  $('export-result').replaceChildren(`Saved ${name} (${bundle.entries.length} entries). Checked here: `, verdict ? el('span', { class: verdict.ok ? 'ok' : 'bad', id: 'export-verdict' }, verdictLine(verdict)) : 'not checked (no Ed25519 in this browser).');
}

async function downloadCopy() {
  const customer = state.customer;
  $('copy-result').textContent = 'Asking for the copy…';
  try {
    const copy = await api('POST', '/v2/consent/access-request', { customer_id: customer.id, limit: COPY_LIMIT });
    const name = `customer-copy-${customer.id}-${stamp()}.json`;
    download(name, copy);
    const verdict = state.ed25519 ? await verifyCustomerCopy(copy, state.jwks) : null;
    $('copy-result').replaceChildren(`Saved ${name}. `, verdictEl(verdict, (v) => `signature verifies (kid ${v.kid})`));
  } catch (error) {
    $('copy-result').replaceChildren(el('span', { class: 'bad' }, explain(error)));
  }
}

/** The printable report of the open customer's copy: what it contains, and how to check it. */
async function buildReport() {
  const customer = state.customer;
  const copy = customer.copy;
  const document_ = copy.document;
  const verdict = customer.copyVerdict;
  const section = (title, ...content) => el('section', {}, el('h2', {}, title), ...content);
  const table = (head, rows) => el('table', {}, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))), el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell) => el('td', {}, cell))))));
  const pings = customer.history.filter((item) => item.type === 'PingRecorded');
  const byDay = new Map();
  for (const ping of pings) byDay.set(accraDay(ping.recorded_at), (byDay.get(accraDay(ping.recorded_at)) ?? 0) + 1);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(copy.jws)));
  const fingerprint = [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const report = $('report');
  report.replaceChildren(
    el('h1', {}, `Customer's copy: ${document_.customer_id}`),
    el('p', {}, `Everything account ${document_.account_id} (${state.me.name ?? ''}) holds about customer ${document_.customer_id}, generated ${accraText(document_.generated_at)} (${utcText(document_.generated_at)}) at the customer's request (Data Protection Act 2012, Act 843: right of access). Times are in Africa/Accra (GMT).`),
    section(
      'What this copy contains',
      el(
        'ul',
        {},
        el('li', {}, `${document_.consents.length} consent record(s): grants, revocations and the erasure, as stored.`),
        el('li', {}, document_.erasure ? `The location history was erased on ${accraText(document_.erasure.erased_at)} (${document_.erasure.events_erased} events destroyed): no position is held.` : `The location history: ${pings.length} ping(s) on ${byDay.size} day(s), and ${customer.history.length - pings.length} zone, drift and geofence event(s)${customer.historyCursor ? ' (more pages exist; see the JSON copy)' : ''}.`),
        el('li', {}, `${document_.verifications.items.length} verification(s) and their certificates.`),
        el('li', {}, `${document_.webhook_deliveries.items.length} webhook delivery(ies) naming the customer.`),
      ),
    ),
    section(
      'How to verify it',
      el('p', {}, 'The copy is signed. Its signature is a compact JWS (EdDSA, Ed25519, typ customer-copy) whose payload is the document itself, field for field. Anyone can check it with the service\'s public keys alone:'),
      el(
        'ol',
        {},
        el('li', {}, `Take the JSON file of this copy (customer-copy-${document_.customer_id}-….json) and the public keys: ${location.origin}/v2/.well-known/jwks.json.`),
        el('li', {}, `Verify its "jws" with the key whose kid is ${copy.kid}, using any JOSE library (for example jose's compactVerify), or drop the file onto this workbench ("Hand it over", "Verify a file").`),
        el('li', {}, 'Check that the verified payload equals the file\'s "document". Any edit breaks the signature.'),
      ),
      el('p', {}, 'When printed: ', verdictEl(verdict, (v) => `the signature verified with kid ${v.kid}`)),
      el('p', { class: 'token' }, `The copy's signature (kid ${copy.kid}); SHA-256 of its JWS: ${fingerprint}. A file whose JWS has another fingerprint is not the copy this report was printed from.`),
    ),
    section('Consents', table(['When', 'What', 'Details'], document_.consents.map((event) => [accraText(event.at), event.type, JSON.stringify(Object.fromEntries(Object.entries(event.data ?? {}).filter(([k]) => !['account_id', 'customer_id'].includes(k))))]))),
    section(
      'Location history',
      document_.erasure
        ? el('p', {}, `Erased on ${accraText(document_.erasure.erased_at)} by ${document_.erasure.erased_by}.`)
        : table(['Day (Accra)', 'Pings recorded'], [...byDay].map(([day, count]) => [day, String(count)])),
      document_.erasure ? '' : table(['When', 'Event'], customer.history.filter((item) => item.type !== 'PingRecorded').map((item) => [accraText(item.occurred_at ?? item.registered_at), item.type])),
    ),
    section('Verifications', table(['When', 'Kind', 'Decision', 'Certificate'], document_.verifications.items.map((item) => [item.verified_at ? accraText(item.verified_at) : '', item.type, String(item.decision ?? item.result ?? ''), item.certificate?.jti ?? 'none']))),
    section('Webhook deliveries', table(['Event time', 'Event', 'Status', 'Attempts'], document_.webhook_deliveries.items.map((d) => [accraText(d.event_timestamp), d.event_type, d.status, String(d.attempt_count)]))),
  );
  report.hidden = false;
}

/** A file dropped or chosen: an audit bundle (bare, in its envelope, or gzipped) or a customer's copy. */
async function verifyFile(file) {
  const result = $('verify-result');
  const detail = $('verify-detail');
  detail.replaceChildren();
  result.className = '';
  result.textContent = `Checking ${file.name}…`;
  let jwks = state.jwks;
  const jwksFile = $('verify-jwks').files?.[0];
  if (jwksFile) {
    try {
      jwks = unwrap(JSON.parse(await jwksFile.text()));
    } catch (error) {
      result.className = 'bad';
      result.textContent = `BAD: unreadable input: the JWKS file: ${error.message}`;
      return;
    }
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  let parsed = null;
  try {
    parsed = unwrap(JSON.parse(await textOf(bytes)));
  } catch {
    parsed = null;
  }
  if (parsed && typeof parsed === 'object' && 'jws' in parsed && 'document' in parsed) {
    const verdict = await verifyCustomerCopy(parsed, jwks);
    result.className = verdict.ok ? 'ok' : 'bad';
    result.textContent = verdict.ok ? `OK customer copy of ${verdict.customer_id} (account ${verdict.account_id}, generated ${verdict.generated_at}): the signature verifies (kid ${verdict.kid})` : `BAD: ${verdict.error}`;
    return;
  }
  const verdict = await verifyBundleFile(bytes, jwks);
  result.className = verdict.ok ? 'ok' : 'bad';
  result.textContent = verdictLine(verdict);
  if (!verdict.ok && Number.isInteger(verdict.index) && parsed?.entries) {
    const entries = parsed.entries;
    const around = entries.slice(Math.max(0, verdict.index - 1), verdict.index + 1);
    detail.append(
      el(
        'table',
        {},
        el('caption', {}, 'The entry named, with the one before it'),
        el('thead', {}, el('tr', {}, ...['#', 'Seq', 'When', 'Who', 'What', 'Answer', 'Request'].map((h) => el('th', { scope: 'col' }, h)))),
        el(
          'tbody',
          {},
          ...around.map((entry) => {
            const index = entries.indexOf(entry);
            return el('tr', { class: index === verdict.index ? 'culprit' : undefined }, el('td', {}, String(index)), el('td', {}, String(entry.seq)), el('td', {}, typeof entry.at === 'string' && !Number.isNaN(Date.parse(entry.at)) ? timeEl(entry.at) : String(entry.at)), el('td', {}, String(entry.key_prefix)), el('td', { class: 'path' }, `${entry.method} ${entry.path}`), el('td', {}, String(entry.status)), el('td', {}, String(entry.request_id)));
          }),
        ),
      ),
    );
  }
}

// ——— Tabs (arrow keys move between them) ———

const TABS = ['story', 'asof', 'access', 'handover'];

function selectTab(name, focus = false) {
  for (const tab of TABS) {
    const on = tab === name;
    $(`tab-${tab}`).setAttribute('aria-selected', String(on));
    $(`tab-${tab}`).tabIndex = on ? 0 : -1;
    $(`view-${tab}`).hidden = !on;
  }
  if (focus) $(`tab-${name}`).focus();
  if (name === 'asof') {
    void ensureMap().then(() => state.map?.resize());
  }
}

$('tabs').addEventListener('keydown', (event) => {
  const current = TABS.findIndex((tab) => $(`tab-${tab}`).getAttribute('aria-selected') === 'true');
  const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: TABS.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  selectTab(TABS[(moves[event.key] + TABS.length) % TABS.length], true);
});
for (const tab of TABS) $(`tab-${tab}`).addEventListener('click', () => selectTab(tab));

// ——— Wiring ———

function guard(fn) {
  return (event) => {
    event?.preventDefault?.();
    busy(true);
    Promise.resolve()
      .then(fn)
      .catch((error) => status(explain(error), true))
      .finally(() => busy(false));
  };
}

$('login-form').addEventListener(
  'submit',
  guard(async () => {
    const email = $('login-email').value.trim();
    const password = $('login-password').value;
    const key = $('login-key').value.trim();
    if (!email || !password || !key) throw new Error('Give your e-mail, your password and a key of your organisation.');
    status('Signing in…');
    const token = await api('POST', '/v2/auth/login', { email, password }, key);
    // Neither the password nor the organisation key is kept.
    $('login-password').value = '';
    $('login-key').value = '';
    await signIn(token.token);
  }),
);
$('token-form').addEventListener(
  'submit',
  guard(async () => {
    const key = $('token').value.trim();
    if (!key) throw new Error('Paste a personal token or a key.');
    $('token').value = '';
    status('Signing in…');
    await signIn(key);
  }),
);
$('sign-out').addEventListener('click', signOut);
$('customer-form').addEventListener(
  'submit',
  guard(() => {
    const id = $('customer-id').value.trim();
    if (!id) throw new Error('Give a customer id.');
    selectTab('story');
    return goToCustomer(id);
  }),
);
$('customers-more').addEventListener('click', guard(() => loadCustomers(false)));
window.addEventListener('hashchange', () => void openFromHash());
$('history-more').addEventListener(
  'click',
  guard(async () => {
    await moreHistory();
    await renderStory();
    await replay(state.instant ?? new Date().toISOString());
  }),
);
$('asof-form').addEventListener(
  'submit',
  guard(async () => {
    const at = accraInputToIso($('asof-at').value);
    if (!at) throw new Error('Give a date and time.');
    await replay(at);
  }),
);
$('asof-now').addEventListener('click', guard(() => replay(new Date().toISOString())));
let sliderTimer;
$('asof-slider').addEventListener('input', () => {
  clearTimeout(sliderTimer);
  sliderTimer = setTimeout(() => void replay(sliderInstant(Number($('asof-slider').value))).catch((error) => status(explain(error), true)), 150);
});
$('access-form').addEventListener('submit', guard(() => loadAccess(true)));
for (const id of ['access-who', 'access-method', 'access-status']) $(id).addEventListener('change', () => state.access.scope && renderAccess());
for (const radio of document.querySelectorAll('input[name=access-scope]')) radio.addEventListener('change', guard(() => loadAccess(true)));
$('access-older').addEventListener(
  'click',
  guard(async () => {
    state.access.cursors[state.access.page + 1] = state.access.next;
    state.access.page += 1;
    await loadAccess(false);
  }),
);
$('access-newer').addEventListener(
  'click',
  guard(async () => {
    state.access.page = Math.max(0, state.access.page - 1);
    await loadAccess(false);
  }),
);
$('export-form').addEventListener('submit', guard(exportBundle));
$('copy-download').addEventListener('click', guard(downloadCopy));
$('copy-print').addEventListener(
  'click',
  guard(async () => {
    await buildReport();
    window.print();
  }),
);
$('verify-file').addEventListener(
  'change',
  guard(async () => {
    const file = $('verify-file').files?.[0];
    if (file) await verifyFile(file);
  }),
);
const zone = $('drop-zone');
zone.addEventListener('dragover', (event) => {
  event.preventDefault();
  zone.classList.add('over');
});
zone.addEventListener('dragleave', () => zone.classList.remove('over'));
zone.addEventListener('drop', (event) => {
  event.preventDefault();
  zone.classList.remove('over');
  const file = event.dataTransfer?.files?.[0];
  if (file) void verifyFile(file).catch((error) => status(explain(error), true));
});
document.body.dataset.ready = 'true';
