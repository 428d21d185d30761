// The reference page (issue 28, item 5): Redoc over the served OpenAPI document.
// No inline script (the CSP allows scripts from this origin only); fonts are the
// system's, so nothing is fetched from another origin.
const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO_FONTS = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

const element = document.getElementById('redoc');
globalThis.Redoc.init(
  '/v2/openapi.json',
  {
    hideDownloadButton: false,
    expandResponses: '200,201',
    jsonSampleExpandLevel: 3,
    sortTagsAlphabetically: true,
    theme: {
      typography: {
        fontFamily: SYSTEM_FONTS,
        headings: { fontFamily: SYSTEM_FONTS },
        code: { fontFamily: MONO_FONTS },
      },
    },
  },
  element,
  (error) => {
    document.body.dataset.ready = error ? 'error' : 'true';
    if (error) document.getElementById('status').textContent = `The reference could not be drawn: ${error.message ?? error}`;
  },
);
