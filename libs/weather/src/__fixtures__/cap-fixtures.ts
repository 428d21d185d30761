/** Small CAP 1.2 documents for the specs: an alert with a polygon and a circle, its update and its cancel. */
export function capAlert(options: { identifier?: string; msgType?: 'Alert' | 'Update' | 'Cancel'; references?: string; event?: string; expires?: string; polygon?: string; circle?: string; sent?: string } = {}): string {
  const {
    identifier = 'GH-2026-001',
    msgType = 'Alert',
    references,
    event = 'Flood',
    expires = '2026-11-23T18:00:00+00:00',
    sent = '2026-11-23T12:00:00+00:00',
    // Around central Accra: lat,lng pairs, closed.
    polygon = '5.50,-0.30 5.50,-0.10 5.70,-0.10 5.70,-0.30 5.50,-0.30',
    circle,
  } = options;
  return `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>${identifier}</identifier>
  <sender>gmet@meteo.gov.gh</sender>
  <sent>${sent}</sent>
  <status>Actual</status>
  <msgType>${msgType}</msgType>
  <scope>Public</scope>${references ? `\n  <references>${references}</references>` : ''}
  <info>
    <language>en</language>
    <category>Met</category>
    <event>${event}</event>
    <urgency>Immediate</urgency>
    <severity>Severe</severity>
    <certainty>Likely</certainty>
    <expires>${expires}</expires>
    <headline>${event} warning for Accra</headline>
    <instruction>Avoid low-lying roads and fords.</instruction>
    <area>
      <areaDesc>Greater Accra</areaDesc>
      <polygon>${polygon}</polygon>${circle ? `\n      <circle>${circle}</circle>` : ''}
    </area>
  </info>
</alert>`;
}
