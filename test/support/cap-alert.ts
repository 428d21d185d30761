/** A CAP 1.2 alert over Greater Accra (the polygon covers central Accra), as GMet publishes them. */
export function capAlert({ identifier, event = 'Flood', expires = '2026-11-23T18:00:00+00:00' }: { identifier: string; event?: string; expires?: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>${identifier}</identifier><sender>gmet@meteo.gov.gh</sender><sent>2026-11-23T12:00:00+00:00</sent>
  <status>Actual</status><msgType>Alert</msgType><scope>Public</scope>
  <info>
    <category>Met</category><event>${event}</event><urgency>Immediate</urgency><severity>Severe</severity><certainty>Likely</certainty>
    <expires>${expires}</expires><headline>${event} warning for Accra</headline>
    <area><areaDesc>Greater Accra</areaDesc><polygon>5.50,-0.30 5.50,-0.10 5.70,-0.10 5.70,-0.30 5.50,-0.30</polygon></area>
  </info>
</alert>`;
}

/** A CAP `expires` time `hours` from now, in the offset form CAP asks for (no fraction, `+00:00`). */
export function capExpiresIn(hours: number): string {
  return new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
}
