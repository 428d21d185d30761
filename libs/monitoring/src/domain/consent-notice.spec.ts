import { createHash } from 'node:crypto';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import {
  consentNoticeStream,
  NOTICE_TEXT_MAX_BYTES,
  noticeDigest,
  NoticeLimitReachedError,
  NoticeMismatchError,
  NoticeNotRegisteredError,
  noticeRegistryDecider,
  NOTICES_PER_ACCOUNT_MAX,
  NoticeVersionExistsError,
  resolveNotice,
  type ConsentNoticeCommand,
  type NoticeRegistryState,
} from './consent-notice.js';

const t1 = new Date('2026-11-22T08:00:00.000Z');
const t2 = new Date('2026-11-22T09:00:00.000Z');
const sha = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
const register = (version: string, language: string, text: string): ConsentNoticeCommand => ({ type: 'RegisterConsentNotice', account_id: 'acct_1', version, language, text, ...noticeDigest(text, 'text') });
const { given, history } = deciderSpec(noticeRegistryDecider);

describe('notice digests (docs/adr/0059)', () => {
  it('hashes the exact UTF-8 bytes: line endings, accents and the Unicode form change the hash', () => {
    const text = 'Ama Lending will use your location.\r\nƐyɛ wo pɛ?';
    expect(noticeDigest(text, 'text')).toEqual({ sha256: sha(text), bytes: Buffer.byteLength(text, 'utf8') });
    expect(noticeDigest(text.replace('\r\n', '\n'), 'text').sha256).not.toBe(sha(text));
    expect(noticeDigest('caf\u00e9', 'text').sha256).not.toBe(noticeDigest('cafe\u0301', 'text').sha256);
  });

  it('refuses an empty text, one over 64 KiB of UTF-8 and one holding a lone surrogate, naming the field', () => {
    for (const text of ['', '   \n', 'a'.repeat(NOTICE_TEXT_MAX_BYTES - 1) + 'ɛ', 'broken \ud800 pair']) {
      const refused = (() => {
        try {
          noticeDigest(text, 'notice.text');
        } catch (error) {
          return error;
        }
      })();
      expect(refused).toBeInstanceOf(InvalidParamError);
      expect(refused).toMatchObject({ field: 'notice.text' });
    }
    expect(noticeDigest('a'.repeat(NOTICE_TEXT_MAX_BYTES), 'text').bytes).toBe(NOTICE_TEXT_MAX_BYTES);
    expect(noticeDigest('pair \ud83d\ude00 kept', 'text').bytes).toBe(14);
  });
});

describe('notice registry decider (docs/adr/0059)', () => {
  it('registers a version per language with its hash and text, in a stream per account', () => {
    expect(consentNoticeStream('acct_1')).toBe('consent_notices-acct_1');
    const events = history([register('v1', 'en', 'Hello'), t1], [register('v1', 'tw', 'Akwaaba'), t2]);
    expect(events.map((event) => [event.data.language, event.data.sha256, event.data.text, event.data.registered_at])).toEqual([
      ['en', sha('Hello'), 'Hello', t1.toISOString()],
      ['tw', sha('Akwaaba'), 'Akwaaba', t2.toISOString()],
    ]);
    expect(given(events).state.notices).toEqual([
      { version: 'v1', language: 'en', sha256: sha('Hello'), bytes: 5, registered_at: t1.toISOString() },
      { version: 'v1', language: 'tw', sha256: sha('Akwaaba'), bytes: 7, registered_at: t2.toISOString() },
    ]);
  });

  it('answers the same text again with nothing, and refuses another text under the same version and language (any case)', () => {
    const events = history([register('v1', 'en-GH', 'Hello'), t1]);
    expect(given(events).when(register('v1', 'en-GH', 'Hello'), t2).events).toEqual([]);
    const refused = given(events).when(register('v1', 'en-gh', 'Hello, changed'), t2).error;
    expect(refused).toBeInstanceOf(NoticeVersionExistsError);
    expect(refused).toMatchObject({ status: 409, details: { registered_sha256: sha('Hello') } });
    expect(given(events).when(register('v2', 'en-GH', 'Hello, changed'), t2).events).toHaveLength(1);
  });

  it('holds at most NOTICES_PER_ACCOUNT_MAX pairs', () => {
    const full = history(...Array.from({ length: NOTICES_PER_ACCOUNT_MAX }, (_, i): [ConsentNoticeCommand, Date] => [register(`v${i}`, 'en', `text ${i}`), t1]));
    expect(full).toHaveLength(NOTICES_PER_ACCOUNT_MAX);
    expect(given(full).when(register('one-more', 'en', 'x'), t2).error).toBeInstanceOf(NoticeLimitReachedError);
    // A registration already held is still answered.
    expect(given(full).when(register('v0', 'en', 'text 0'), t2).events).toEqual([]);
  });

  it('refuses a malformed version or language', () => {
    expect(given([]).when(register('bad version', 'en', 'x'), t1).error).toMatchObject({ field: 'version' });
    expect(given([]).when(register('v1', 'english please', 'x'), t1).error).toMatchObject({ field: 'language' });
  });
});

describe('resolving a grant’s notice (docs/adr/0059)', () => {
  const registry: NoticeRegistryState = given(history([register('v1', 'en', 'Hello'), t1], [register('v1', 'tw', 'Akwaaba'), t1], [register('v2', 'ee', 'Woezɔ'), t1])).state;

  it('fills in the hash of a registered version, and its one language when left out', () => {
    expect(resolveNotice({ version: 'v1', language: 'tw' }, registry)).toEqual({ version: 'v1', language: 'tw', sha256: sha('Akwaaba') });
    expect(resolveNotice({ version: 'v2' }, registry)).toEqual({ version: 'v2', language: 'ee', sha256: sha('Woezɔ') });
    expect(resolveNotice({ version: 'v1', language: 'EN', sha256: sha('Hello') }, registry)).toEqual({ version: 'v1', language: 'en', sha256: sha('Hello') });
  });

  it('refuses a hash or text that is not the registered one, naming the field sent', () => {
    const wrongHash = (() => {
      try {
        return resolveNotice({ version: 'v1', language: 'en', sha256: sha('Hullo') }, registry);
      } catch (error) {
        return error;
      }
    })();
    expect(wrongHash).toBeInstanceOf(NoticeMismatchError);
    expect(wrongHash).toMatchObject({ status: 422, field: 'notice.sha256', details: { registered_sha256: sha('Hello'), sha256: sha('Hullo') } });
    expect(() => resolveNotice({ version: 'v1', language: 'en', sha256: sha('Hullo'), from_text: true }, registry)).toThrow(expect.objectContaining({ field: 'notice.text' }));
  });

  it('asks for the language when the version has several, and for a hash or text when it is not registered', () => {
    expect(() => resolveNotice({ version: 'v1' }, registry)).toThrow(expect.objectContaining({ field: 'notice.language', message: expect.stringContaining('en, tw') }));
    expect(() => resolveNotice({ version: 'v9', language: 'en' }, registry)).toThrow(NoticeNotRegisteredError);
    expect(() => resolveNotice({ version: 'v9' }, registry)).toThrow(NoticeNotRegisteredError);
    expect(() => resolveNotice({ version: 'v9', sha256: sha('x') }, registry)).toThrow(expect.objectContaining({ field: 'notice.language' }));
  });

  it('takes the hash sent for a version, or a language of it, the registry does not hold', () => {
    expect(resolveNotice({ version: 'v9', language: 'gaa', sha256: sha('x') }, registry)).toEqual({ version: 'v9', language: 'gaa', sha256: sha('x') });
    expect(resolveNotice({ version: 'v1', language: 'gaa', sha256: sha('x') }, registry)).toEqual({ version: 'v1', language: 'gaa', sha256: sha('x') });
    expect(resolveNotice({ version: 'v1', language: 'en', sha256: sha('x') }, { notices: [] })).toEqual({ version: 'v1', language: 'en', sha256: sha('x') });
  });
});
