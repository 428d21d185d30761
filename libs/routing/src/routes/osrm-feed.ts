import { spokenDistance } from '../domain/maneuvers.js';
import { encodePolyline } from '../domain/polyline.js';
import type { Mode } from '../domain/profiles.js';
import type { RoutePlan } from '../public/route-planner.js';
import type { BuiltRoute, RouteStep } from './route-builder.js';

/**
 * The route as the OSRM / Mapbox Directions v5 response
 * (docs.mapbox.com/api/navigation/directions, project-osrm.org/docs/v5.24.0/api):
 * `routes[].legs[].steps[]` with `maneuver` {type, modifier, exit, location,
 * bearing_before, bearing_after, instruction}, `intersections`,
 * `voiceInstructions` and `bannerInstructions` (Mapbox's extension that
 * MapLibre Navigation and Ferrostar read), geometry as polyline6 by default.
 * Each step's voice and banner instructions announce the manoeuvre that ends
 * it (the next step's), as Mapbox does; `distanceAlongGeometry` counts back
 * from the end of the step.
 */
export type Geometries = 'polyline6' | 'polyline' | 'geojson';

const OSRM_MODE: Record<Mode, string> = { driving: 'driving', motor_scooter: 'driving', bicycle: 'cycling', walking: 'walking' };
const MODIFIERS: Record<string, string> = {
  straight: 'straight', slight_left: 'slight left', slight_right: 'slight right', left: 'left', right: 'right', sharp_left: 'sharp left', sharp_right: 'sharp right', uturn: 'uturn',
};

export function osrmFeed(plan: RoutePlan, geometries: Geometries, options: { voiceUnits?: 'metric' } = {}) {
  const routes = [plan.route, ...plan.alternatives].map((route) => osrmRoute(route, plan.mode, geometries));
  const legs = plan.route.legs;
  const waypoints = [
    { name: plan.route.steps[0]?.name ?? '', location: [legs[0].snapped_from.lng, legs[0].snapped_from.lat] },
    ...legs.map((leg, i) => ({ name: plan.route.steps.filter((step) => step.leg === i).at(-1)?.name ?? '', location: [leg.snapped_to.lng, leg.snapped_to.lat] })),
  ];
  void options;
  return { code: 'Ok', routes, waypoints, voiceLocale: 'en', attribution: plan.attribution };
}

function geometryOf(coordinates: Array<[number, number]>, geometries: Geometries) {
  if (geometries === 'geojson') return { type: 'LineString' as const, coordinates };
  return encodePolyline(coordinates, geometries === 'polyline6' ? 6 : 5);
}

function osrmRoute(route: BuiltRoute, mode: Mode, geometries: Geometries) {
  const legs = route.legs.map((leg, index) => {
    const steps = route.steps.filter((step) => step.leg === index);
    const last = steps[steps.length - 1];
    // OSRM ends every leg with an arrive step and starts every leg with a depart step.
    if (last && last.turn_class !== 'arrive') {
      const end = last.coordinates[last.coordinates.length - 1];
      steps.push({ ...last, instruction: 'You have reached your stop', turn_class: 'arrive', distance_m: 0, duration_s: 0, coordinates: [end, end], maneuver_point: end, turn_angle: 0, lanes: undefined, verbal_post: null });
    }
    const osrmSteps = steps.map((step, i) => osrmStep(step, steps[i + 1] ?? null, mode, geometries, i === 0));
    return { distance: leg.distance_m, duration: leg.duration_s, weight: leg.duration_s, summary: leg.summary, steps: osrmSteps, annotation: undefined };
  });
  return {
    distance: route.distance_m,
    duration: route.duration_s,
    weight: route.duration_s,
    weight_name: 'duration',
    geometry: geometryOf(route.geometry.coordinates, geometries),
    legs,
    voiceLocale: 'en',
  };
}

function maneuverOf(step: RouteStep, first: boolean) {
  const turn = step.turn_class;
  let type = 'turn';
  let modifier: string | undefined = MODIFIERS[turn];
  let exit: number | undefined;
  if (turn === 'depart' || (first && turn === 'waypoint')) {
    type = 'depart';
    modifier = undefined;
  } else if (turn === 'arrive') {
    type = 'arrive';
    modifier = undefined;
  } else if (turn === 'waypoint') {
    type = 'continue';
    modifier = 'straight';
  } else if (turn.startsWith('roundabout_exit_')) {
    type = 'roundabout';
    exit = Number(turn.slice('roundabout_exit_'.length));
    modifier = step.turn_angle < -20 ? 'left' : step.turn_angle > 20 ? 'right' : 'straight';
  } else if (turn === 'straight') {
    type = 'new name';
  } else if (turn === 'uturn') {
    type = 'continue';
  }
  return {
    type,
    ...(modifier ? { modifier } : {}),
    ...(exit !== undefined ? { exit } : {}),
    location: step.maneuver_point,
    bearing_before: step.bearing_before,
    bearing_after: step.bearing_after,
    instruction: step.instruction,
  };
}

function osrmStep(step: RouteStep, next: RouteStep | null, mode: Mode, geometries: Geometries, first: boolean) {
  const maneuver = maneuverOf(step, first);
  const upcoming = next ? maneuverOf(next, false) : null;
  const distance = step.distance_m;
  const voiceInstructions: Array<{ distanceAlongGeometry: number; announcement: string; ssmlAnnouncement: string }> = [];
  const say = (at: number, text: string) => voiceInstructions.push({ distanceAlongGeometry: Math.round(at * 10) / 10, announcement: text, ssmlAnnouncement: `<speak><amazon:effect name="drc"><prosody rate="1.08">${escapeXml(text)}</prosody></amazon:effect></speak>` });
  if (next) {
    const nextText = next.verbal_alert;
    if (first) say(distance, `${step.instruction}${distance > 400 ? `, then continue for ${spokenDistance(distance)}` : `, then ${lowerFirst(nextText)}`}`);
    else if (distance > 400) say(distance, `Continue for ${spokenDistance(distance)}`);
    const warnAt = Math.min(distance, mode === 'walking' ? 50 : 200);
    if (warnAt < distance || !first) say(warnAt, `In ${spokenDistance(warnAt)}, ${lowerFirst(nextText)}`);
  } else if (step.turn_class === 'arrive') {
    say(0, step.instruction);
  }
  const bannerInstructions = next && upcoming
    ? [
        {
          distanceAlongGeometry: distance,
          primary: {
            text: next.name || next.instruction,
            components: [{ text: next.name || next.instruction, type: 'text' }],
            type: upcoming.type,
            ...('modifier' in upcoming && upcoming.modifier ? { modifier: upcoming.modifier } : {}),
            ...('exit' in upcoming && upcoming.exit !== undefined ? { degrees: Math.abs(next.turn_angle), driving_side: 'right' } : {}),
          },
          secondary: null,
          ...(next.lanes
            ? {
                sub: {
                  text: '',
                  components: next.lanes.map((lane) => ({ text: '', type: 'lane', directions: lane.indications, active: lane.valid })),
                },
              }
            : {}),
        },
      ]
    : step.turn_class === 'arrive'
      ? [{ distanceAlongGeometry: 0, primary: { text: step.instruction, components: [{ text: step.instruction, type: 'text' }], type: 'arrive' }, secondary: null }]
      : [];
  return {
    distance,
    duration: step.duration_s,
    weight: step.duration_s,
    name: step.name,
    ...(step.ref ? { ref: step.ref } : {}),
    mode: OSRM_MODE[mode],
    driving_side: 'right',
    geometry: geometryOf(step.coordinates, geometries),
    maneuver,
    intersections: [
      {
        location: step.maneuver_point,
        bearings: first ? [step.bearing_after] : [(step.bearing_before + 180) % 360, step.bearing_after],
        entry: first ? [true] : [false, true],
        ...(first ? {} : { in: 0 }),
        out: first ? 0 : 1,
        ...(step.lanes ? { lanes: step.lanes } : {}),
      },
    ],
    voiceInstructions,
    bannerInstructions,
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
