import { createHash } from 'node:crypto';
import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import { NOTICE_LANGUAGE, NOTICE_SHA256, NOTICE_VERSION, type ConsentNotice, type NoticeReference } from './consent.js';

/**
 * An account's registry of consent notices (docs/adr/0059): each (version,
 * language) registered once with its text, whose SHA-256 grants then take by
 * naming the version. One stream per account. A notice never changes: a new
 * text is a new version. The text is stored once, in the registration event,
 * so the account (or a regulator it answers) can read back the very text a
 * receipt's hash binds; grants and receipts carry the hash only.
 */
export const NOTICE_TEXT_MAX_BYTES = 64 * 1024;
/** (version, language) entries an account may register. */
export const NOTICES_PER_ACCOUNT_MAX = 100;

export interface ConsentNoticeRegistered {
  type: 'ConsentNoticeRegistered';
  data: { account_id: string; version: string; language: string; sha256: string; bytes: number; text: string; registered_at: string };
}
export type ConsentNoticeEvent = ConsentNoticeRegistered;
export const CONSENT_NOTICE_EVENT_TYPES = ['ConsentNoticeRegistered'] as const satisfies readonly ConsentNoticeEvent['type'][];

/** A registered notice without its text: what grants and the list need. */
export interface RegisteredNotice {
  version: string;
  language: string;
  sha256: string;
  bytes: number;
  registered_at: string;
}
/** The registry as grants see it, in registration order. */
export interface NoticeRegistryState {
  notices: readonly RegisteredNotice[];
}
export const initialNoticeRegistryState: NoticeRegistryState = { notices: [] };

/** `sha256` and `bytes` are computed from `text` by `noticeDigest` (the controller), never taken from a caller. */
export interface RegisterConsentNotice {
  type: 'RegisterConsentNotice';
  account_id: string;
  version: string;
  language: string;
  text: string;
  sha256: string;
  bytes: number;
}
export type ConsentNoticeCommand = RegisterConsentNotice;

/** `consent_notices-<account>`: one registry per account (the category has no dash). */
export function consentNoticeStream(accountId: string): string {
  return `consent_notices-${accountId}`;
}

/** BCP 47 tags compare without regard to case (RFC 5646 §2.1.1): en-GH and en-gh are one language. */
export function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export class NoticeVersionExistsError extends DomainError {
  readonly code = 'NOTICE_VERSION_EXISTS';
  readonly status = 409;
  override readonly field = 'text';
  override readonly details: Readonly<{ version: string; language: string; registered_sha256: string }>;
  constructor(registered: RegisteredNotice) {
    super(`notice ${registered.version} (${registered.language}) is registered with another text (sha256 ${registered.sha256}); a registered notice never changes: register the new text under a new version`);
    this.details = { version: registered.version, language: registered.language, registered_sha256: registered.sha256 };
  }
}

export class NoticeLimitReachedError extends DomainError {
  readonly code = 'NOTICE_LIMIT_REACHED';
  readonly status = 409;
  constructor() {
    super(`an account registers at most ${NOTICES_PER_ACCOUNT_MAX} notices (version and language pairs)`);
  }
}

/** A grant's hash (or text) that is not the registered notice's. */
export class NoticeMismatchError extends DomainError {
  readonly code = 'NOTICE_MISMATCH';
  readonly status = 422;
  override readonly details: Readonly<{ version: string; language: string; registered_sha256: string; sha256: string }>;
  constructor(
    registered: RegisteredNotice,
    sha256: string,
    override readonly field: 'notice.sha256' | 'notice.text',
  ) {
    super(
      field === 'notice.text'
        ? `notice.text is not the text registered as notice ${registered.version} (${registered.language}): its SHA-256 is ${sha256}, the registered one ${registered.sha256}`
        : `notice.sha256 ${sha256} is not the SHA-256 of notice ${registered.version} (${registered.language}) as registered (${registered.sha256}); send the registered hash, or leave sha256 out and the service fills it in`,
    );
    this.details = { version: registered.version, language: registered.language, registered_sha256: registered.sha256, sha256 };
  }
}

/** A grant naming a notice the registry does not hold, with neither hash nor text. */
export class NoticeNotRegisteredError extends DomainError {
  readonly code = 'NOTICE_NOT_REGISTERED';
  readonly status = 422;
  override readonly field = 'notice.version';
  constructor(version: string, language: string | undefined) {
    super(
      `notice ${version}${language ? ` (${language})` : ''} is not registered under this account: send notice.sha256 or notice.text with it, or register it first with PUT /v2/consent/notices/${version}`,
    );
  }
}

/** GET /v2/consent/notices/{version} of a version this account never registered. */
export class NoticeNotFoundError extends DomainError {
  readonly code = 'NOTICE_NOT_FOUND';
  readonly status = 404;
  constructor(version: string) {
    super(`no notice ${version} is registered under this account`);
  }
}

/** A registered notice with its text, as GET /v2/consent/notices/{version} reads it back. */
export type RegisteredNoticeText = RegisteredNotice & { text: string };

/** The texts registered under one version, in registration order: a fold of the registry's events. */
export function noticeTextsOf(version: string): { initialState: RegisteredNoticeText[]; evolve: (state: RegisteredNoticeText[], event: ConsentNoticeEvent) => RegisteredNoticeText[] } {
  return {
    initialState: [],
    evolve: (state, event) => {
      if (event.data.version !== version) return state;
      const { account_id: _account, ...notice } = event.data;
      return [...state, notice];
    },
  };
}

/** SHA-256 (lower-case hex) and length of a notice's exact UTF-8 bytes, after checking the text (docs/adr/0059). */
export function noticeDigest(text: string, field: string): { sha256: string; bytes: number } {
  if (text.trim().length === 0) throw new InvalidParamError(`${field} must hold the notice's text`, field);
  // A lone surrogate has no UTF-8 form: hashing it would hash U+FFFD, not what was sent.
  if (/\p{Cs}/u.test(text)) throw new InvalidParamError(`${field} holds an unpaired UTF-16 surrogate: it is not Unicode text`, field);
  const utf8 = Buffer.from(text, 'utf8');
  if (utf8.length > NOTICE_TEXT_MAX_BYTES) throw new InvalidParamError(`${field} is ${utf8.length} bytes of UTF-8; a notice holds at most ${NOTICE_TEXT_MAX_BYTES}`, field);
  return { sha256: createHash('sha256').update(utf8).digest('hex'), bytes: utf8.length };
}

export function evolveNoticeRegistry(state: NoticeRegistryState, event: ConsentNoticeEvent): NoticeRegistryState {
  if (event.type !== 'ConsentNoticeRegistered') return state;
  const { version, language, sha256, bytes, registered_at } = event.data;
  return { notices: [...state.notices, { version, language, sha256, bytes, registered_at }] };
}

/**
 * Registering the text a (version, language) already holds changes nothing;
 * another text under it is NOTICE_VERSION_EXISTS; a new pair beyond the
 * account's allowance is NOTICE_LIMIT_REACHED.
 */
export function decideNoticeRegistry(command: ConsentNoticeCommand, state: NoticeRegistryState, now: Date): ConsentNoticeEvent[] {
  const { account_id, version, language, text, sha256, bytes } = command;
  if (!NOTICE_VERSION.test(version)) throw new InvalidParamError('version must be 1-64 characters of letters, digits and . _ : + -', 'version');
  if (!NOTICE_LANGUAGE.test(language)) throw new InvalidParamError('language must be a BCP 47 language tag', 'language');
  if (!NOTICE_SHA256.test(sha256)) throw new Error('a notice registration reached its decider without its digest');
  const registered = state.notices.find((notice) => notice.version === version && sameLanguage(notice.language, language));
  if (registered) {
    if (registered.sha256 === sha256) return [];
    throw new NoticeVersionExistsError(registered);
  }
  if (state.notices.length >= NOTICES_PER_ACCOUNT_MAX) throw new NoticeLimitReachedError();
  return [{ type: 'ConsentNoticeRegistered', data: { account_id, version, language, sha256, bytes, text, registered_at: now.toISOString() } }];
}

export const noticeRegistryDecider: Decider<ConsentNoticeCommand, NoticeRegistryState, ConsentNoticeEvent> = {
  initialState: initialNoticeRegistryState,
  evolve: evolveNoticeRegistry,
  decide: decideNoticeRegistry,
};

/** The registered notice of (version, language), if any. */
export function registeredNotice(state: NoticeRegistryState, version: string, language: string): RegisteredNotice | undefined {
  return state.notices.find((notice) => notice.version === version && sameLanguage(notice.language, language));
}

/**
 * The notice a grant records (docs/adr/0059). The language is the one given,
 * or, when left out, the one language the version is registered in. A
 * registered (version, language) gives its hash: a hash or text sent with it
 * must agree (NOTICE_MISMATCH). One not registered takes the hash sent (or
 * computed from the text sent); with neither, NOTICE_NOT_REGISTERED.
 */
export function resolveNotice(reference: NoticeReference, registry: NoticeRegistryState): ConsentNotice {
  const { version, sha256 } = reference;
  const ofVersion = registry.notices.filter((notice) => notice.version === version);
  let language = reference.language;
  if (language === undefined) {
    if (ofVersion.length > 1) {
      throw new InvalidParamError(`notice ${version} is registered in ${ofVersion.map((notice) => notice.language).join(', ')}: name notice.language`, 'notice.language');
    }
    if (ofVersion.length === 0) {
      if (sha256 === undefined) throw new NoticeNotRegisteredError(version, undefined);
      throw new InvalidParamError('notice.language is required: a BCP 47 language tag (en, tw, ee, gaa, dag, fat…)', 'notice.language');
    }
    language = ofVersion[0].language;
  }
  const registered = registeredNotice(registry, version, language);
  if (registered) {
    if (sha256 !== undefined && sha256 !== registered.sha256) throw new NoticeMismatchError(registered, sha256, reference.from_text ? 'notice.text' : 'notice.sha256');
    return { version, sha256: registered.sha256, language: registered.language };
  }
  if (sha256 === undefined) throw new NoticeNotRegisteredError(version, language);
  return { version, sha256, language };
}
