import { execSync } from 'node:child_process';
import { BullMqJobQueue } from './bullmq-job-queue.js';

it('survives a redis restart', async () => {
  const errors: unknown[] = [];
  const q = await BullMqJobQueue.open({ redisUrl: 'redis://127.0.0.1:6391', prefix: 'rc', onError: (e) => errors.push(String(e)) });
  const runs: string[] = [];
  q.process('rq', async (job) => { runs.push(job.id); });
  await q.add('rq', 'a', {}, { jobId: 'a' });
  while (runs.length < 1) await new Promise((r) => setTimeout(r, 20));
  execSync('redis-cli -p 6391 shutdown nosave || true');
  await new Promise((r) => setTimeout(r, 500));
  await expect(q.ping()).rejects.toThrow();
  execSync("redis-server --port 6391 --save '' --daemonize yes");
  const t0 = Date.now();
  for (;;) { try { await q.ping(); break; } catch { await new Promise((r) => setTimeout(r, 200)); } if (Date.now() - t0 > 30000) throw new Error('no reconnect'); }
  console.log('reconnected after', Date.now() - t0);
  await q.add('rq', 'b', {}, { jobId: 'b' });
  const t1 = Date.now();
  while (runs.length < 2 && Date.now() - t1 < 30000) await new Promise((r) => setTimeout(r, 50));
  console.log('runs', runs, 'after', Date.now() - t1, 'errors', errors.slice(0, 5), errors.length);
  await q.close();
}, 60000);
