import type { Service } from './boot.js';

/** The parsed body of a response, typed by the caller. */
export const json = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await response.json()) as T;

/** The `data` of the response envelope (decisions.md, "Fixed behaviour"). */
export const data = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await json<{ data: T }>(response)).data;

/** A new self-service account under a unique address (`<name>-<random>@example.com`); its key. */
export async function signUp(service: Pick<Service, 'request'>, name: string): Promise<string> {
  const response = await service.request('POST', '/v2/self/signup', { body: { name, email: `${name.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com` } });
  return (await data<{ key: string }>(response)).key;
}

/** The account a key belongs to, from `GET /v2/me`. */
export const accountOf = async (service: Pick<Service, 'request'>, key: string): Promise<string> =>
  (await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key }))).account_id;
