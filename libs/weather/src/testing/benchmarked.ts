// What bench/ measures inside this context (docs/adr/0066): bench reaches a context through its index.ts or its
// testing helpers, as test/ does (rule bench-through-index), so an internal a benchmark times is named here and
// nowhere in the contract. Production code may not import it (testing-stays-in-tests).
export { capAlert } from '../__fixtures__/cap-fixtures.js';
export { AlertRecorder } from '../public/alert-log.js';
export { CapAlertView } from '../public/alert-view.js';
export { importAlerts } from '../public/import-alerts.js';
export { readCap } from '../public/read-cap.js';
