import { createCanvas } from '@napi-rs/canvas';
import type { LoadedNetwork } from '../engine/loaded-network.js';

/** interface.md: GET /v2/route/static answers a fixed 800×500 PNG. */
export const STATIC_WIDTH = 800;
export const STATIC_HEIGHT = 500;
/** The route's colour: tests look for it in the decoded image. */
export const ROUTE_COLOR = '#1A73E8';
const ROAD_COLOR = '#C8C8C8';
const MAJOR_ROAD_COLOR = '#A8A8A8';
const BACKGROUND = '#F2EFE9';
const MAJOR = /^(motorway|trunk|primary|secondary)(_link)?$/;
const PADDING = 40;

/**
 * The route drawn over the road network around it, Web Mercator, fitted to
 * the frame with a margin: roads grey (major ones wider), the route blue,
 * a green start and a red end marker, and the OSM attribution the data's
 * licence requires. Drawing a city's roads takes ~20 ms on the event loop.
 */
export async function renderStaticMap(net: LoadedNetwork | null, route: Array<[number, number]>): Promise<Buffer> {
  const canvas = createCanvas(STATIC_WIDTH, STATIC_HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, STATIC_WIDTH, STATIC_HEIGHT);
  const xs = route.map(([lng]) => mercatorX(lng));
  const ys = route.map(([, lat]) => mercatorY(lat));
  let minX = Math.min(...xs);
  let maxX = Math.max(...xs);
  let minY = Math.min(...ys);
  let maxY = Math.max(...ys);
  // At least ~500 m across, so a short route is not a smear.
  const minimum = 500 / 40_075_016;
  if (maxX - minX < minimum) [minX, maxX] = [(minX + maxX) / 2 - minimum / 2, (minX + maxX) / 2 + minimum / 2];
  if (maxY - minY < minimum) [minY, maxY] = [(minY + maxY) / 2 - minimum / 2, (minY + maxY) / 2 + minimum / 2];
  const scale = Math.min((STATIC_WIDTH - 2 * PADDING) / (maxX - minX), (STATIC_HEIGHT - 2 * PADDING) / (maxY - minY));
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const px = (lng: number) => STATIC_WIDTH / 2 + (mercatorX(lng) - cx) * scale;
  const py = (lat: number) => STATIC_HEIGHT / 2 + (mercatorY(lat) - cy) * scale;
  if (net) {
    const graph = net.graph;
    g.lineCap = 'round';
    g.lineJoin = 'round';
    for (const major of [false, true]) {
      g.strokeStyle = major ? MAJOR_ROAD_COLOR : ROAD_COLOR;
      g.lineWidth = major ? 3 : 1.5;
      g.beginPath();
      for (let e = 0; e < graph.edgeCount; e++) {
        if (MAJOR.test(graph.ways[graph.edgeWay[e]].highway) !== major) continue;
        const start = graph.geomOffset[e];
        const end = graph.geomOffset[e + 1];
        let inside = false;
        for (let p = start; p < end && !inside; p++) {
          const x = px(graph.geomLng[p]);
          const y = py(graph.geomLat[p]);
          inside = x > -50 && x < STATIC_WIDTH + 50 && y > -50 && y < STATIC_HEIGHT + 50;
        }
        if (!inside) continue;
        g.moveTo(px(graph.geomLng[start]), py(graph.geomLat[start]));
        for (let p = start + 1; p < end; p++) g.lineTo(px(graph.geomLng[p]), py(graph.geomLat[p]));
      }
      g.stroke();
    }
  }
  g.strokeStyle = '#FFFFFF';
  g.lineWidth = 9;
  g.lineCap = 'round';
  g.lineJoin = 'round';
  const trace = () => {
    g.beginPath();
    route.forEach(([lng, lat], i) => (i === 0 ? g.moveTo(px(lng), py(lat)) : g.lineTo(px(lng), py(lat))));
    g.stroke();
  };
  trace();
  g.strokeStyle = ROUTE_COLOR;
  g.lineWidth = 6;
  trace();
  const marker = ([lng, lat]: [number, number], fill: string) => {
    g.beginPath();
    g.arc(px(lng), py(lat), 8, 0, 2 * Math.PI);
    g.fillStyle = fill;
    g.fill();
    g.lineWidth = 2.5;
    g.strokeStyle = '#FFFFFF';
    g.stroke();
  };
  marker(route[0], '#2E7D32');
  marker(route[route.length - 1], '#C62828');
  const attribution = '© OpenStreetMap contributors';
  g.font = '11px sans-serif';
  const width = g.measureText(attribution).width;
  g.fillStyle = 'rgba(255,255,255,0.85)';
  g.fillRect(STATIC_WIDTH - width - 12, STATIC_HEIGHT - 18, width + 12, 18);
  g.fillStyle = '#333333';
  g.fillText(attribution, STATIC_WIDTH - width - 6, STATIC_HEIGHT - 5);
  // Encoding (most of the time) runs on libuv's pool, not the event loop.
  return canvas.encode('png');
}

function mercatorX(lng: number): number {
  return (lng + 180) / 360;
}

function mercatorY(lat: number): number {
  const s = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
}
