// For tests and bench/ only (testing-stays-in-tests): the in-memory traffic view, built over stubs by routing's
// live-route spec and timed by bench/traffic.bench.ts. Other contexts' code reads traffic through routing's
// RoadConditions port, never this view.
export { TrafficView } from '../public/traffic-view.js';
