import { Injectable, Module } from '@nestjs/common';
import type { AlertAreas } from '../../../libs/banking/src/index.js';
import { WeatherAlerts } from '../../../libs/weather/src/index.js';

/**
 * Banking's ALERT_AREAS port (portfolio risk's weather factor) answered by the
 * weather context's CAP alerts: a loan counts when an alert in force covers its
 * zone anchor and is a flood/rain alert or of Severe or Extreme severity. With
 * no feed configured and no alert ever imported the factor stays "unavailable",
 * never "no loan under an alert".
 */
@Injectable()
export class WeatherAlertAreas implements AlertAreas {
  constructor(private readonly alerts: WeatherAlerts) {}

  async activeAt(points: ReadonlyArray<{ lat: number; lng: number }>, at: Date): ReturnType<AlertAreas['activeAt']> {
    const answer = this.alerts.coveringPoints(points, at, { wetOrSevere: true });
    return answer.configured ? { available: true, covered: answer.covered } : { available: false };
  }
}

/** Where banking and weather meet (the composition root), so neither context imports the other. */
@Module({ providers: [WeatherAlertAreas], exports: [WeatherAlertAreas] })
export class WeatherAlertAreasModule {}
