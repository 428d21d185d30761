import { FileDatasetStore, ReadModels, referenceRoot, systemClock, UsageError, withOperatorBus, type OperatorCommand, type OperatorRuntime } from '../../platform/src/index.js';
import { Gazetteer } from './public/gazetteer.js';
import { Landmarks } from './landmarks/public/landmarks.js';
import { ReviewLandmarkCommand, ReviewLandmarkHandler } from './landmarks/commands/review-landmark/review-landmark.handler.js';
import { REVIEW_DECISIONS, type ReviewDecision } from './landmarks/domain/landmark-reports.js';

/** The operator's places commands (the reference-data imports are the datasets'). */
export const placesCli: Readonly<Record<string, OperatorCommand>> = {
  'landmarks:review': { usage: 'landmarks:review SLUG keep|exclude   (settles reports: narration may name it again, or never)', run: reviewLandmark },
};

/** The same event as POST /v2/admin/landmarks/{slug}/review; the slug is checked against the live place sets. */
async function reviewLandmark(runtime: OperatorRuntime, args: string[]): Promise<number> {
  const [slug, decision] = args;
  if (!slug) throw new UsageError('missing SLUG');
  if (!(REVIEW_DECISIONS as readonly string[]).includes(decision ?? '')) throw new UsageError(`decision must be one of ${REVIEW_DECISIONS.join(', ')}`);
  const log = { info: () => undefined, error: (fields: Record<string, unknown>) => process.stderr.write(`${JSON.stringify(fields)}\n`) };
  const gazetteer = new Gazetteer(new FileDatasetStore(referenceRoot(runtime.config)), log, 0);
  await gazetteer.start();
  // The service's narration feed and projection take the event from the log; the CLI has neither to wait for.
  const readModels = new ReadModels().register('narration_feed', { waitFor: async () => undefined }).register('landmark_reports', { waitFor: async () => undefined });
  const result = await withOperatorBus(
    {
      events: runtime.backends.events,
      registry: runtime.registry,
      clock: systemClock,
      readModels,
      providers: [{ provide: Landmarks, useValue: { bySlugKey: (key: string) => gazetteer.landmarks().byKeyOf(key) } }, ReviewLandmarkHandler],
    },
    (commands) => commands.execute(new ReviewLandmarkCommand(slug, decision as ReviewDecision, 'ops')),
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
