// For tests only (testing-stays-in-tests): the e2e suites open stored location events with the customer's key to
// check what is sealed, and other contexts' specs build the customer-location port over events stored in the clear.
export { LocationSealing } from '../location-stream/location-sealing.js';
export { MonitoringCustomerLocations, type LocationOpener } from '../customer-locations/monitoring-customer-locations.js';
