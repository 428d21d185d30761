/** Who is calling, once the API-key guard has accepted the request. */
export interface Principal {
  kind: 'admin' | 'key' | 'user';
  /** null for the operator key and for legacy keys without an account. */
  account_id: string | null;
  /** First characters of the presented key, safe to log. */
  key_prefix: string;
  /** Personal tokens: the user the token is scoped to. */
  user_id?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** When the request arrived, in epoch milliseconds (audit records write it as ISO text). */
    receivedAt?: number;
  }
}
