import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseListener } from '../../../platform/src/index.js';
import type { AccessRecorder } from './access-recorder.js';

/** Records every authenticated request before its response leaves (see AccessRecorder). */
export function accessListener(recorder: AccessRecorder): ResponseListener {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal;
    if (!principal) return;
    const started = request.receivedAt;
    await recorder.record({
      account_id: principal.account_id,
      key_prefix: principal.key_prefix,
      principal_kind: principal.kind,
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      client_ip: request.ip,
      at: started ?? new Date().toISOString(),
      request_id: String(request.id),
    });
  };
}
