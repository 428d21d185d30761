import { sniffAudio, mediaTypeOf } from './audio.js';
import { UnsupportedLanguagePairError } from './errors.js';
import { checkPair, checkSpeechLanguage, LANGUAGE_PAIRS } from './languages.js';

describe('languages', () => {
  it('serves English to and from Twi, Ewe, Ga, Dagbani, Fante and Frafra, and nothing else', () => {
    expect([...LANGUAGE_PAIRS].sort()).toEqual(['dag-en', 'ee-en', 'en-dag', 'en-ee', 'en-fat', 'en-gaa', 'en-gur', 'en-tw', 'fat-en', 'gaa-en', 'gur-en', 'tw-en']);
    expect(checkPair('gur', 'en')).toEqual({ from: 'gur', to: 'en' });
  });

  it('names the field at fault: an unknown code its own field, a pair that is not served `to`', () => {
    expect(() => checkPair('fr', 'tw')).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'from' }));
    expect(() => checkPair('en', 'ga')).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'to' }));
    for (const [from, to] of [['tw', 'ee'], ['en', 'en'], ['gaa', 'gaa']]) {
      let error: unknown;
      try {
        checkPair(from, to);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(UnsupportedLanguagePairError);
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_LANGUAGE_PAIR', field: 'to', details: { pair: `${from}-${to}` } });
    }
    expect(() => checkPair('__proto__', 'en')).toThrow(expect.objectContaining({ field: 'from' }));
  });

  it('transcribes Ghanaian languages only', () => {
    expect(checkSpeechLanguage('fat')).toBe('fat');
    expect(() => checkSpeechLanguage('en')).toThrow(expect.objectContaining({ field: 'language' }));
  });
});

describe('audio', () => {
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

  it('tells the accepted formats by their first bytes', () => {
    expect(sniffAudio(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('wav');
    expect(sniffAudio(bytes('ID3', [4, 0]))).toBe('mp3');
    expect(sniffAudio(bytes([0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    expect(sniffAudio(bytes('OggS', [0, 2]))).toBe('ogg');
    expect(sniffAudio(bytes('fLaC', [0]))).toBe('flac');
    expect(sniffAudio(bytes([0x1a, 0x45, 0xdf, 0xa3, 1]))).toBe('webm');
    expect(sniffAudio(bytes([0, 0, 0, 0x20], 'ftypM4A '))).toBe('mp4');
  });

  it('recognises nothing in text, images or a truncated header', () => {
    expect(sniffAudio(bytes('{"audio": "..."}'))).toBeUndefined();
    expect(sniffAudio(bytes([0x89], 'PNG'))).toBeUndefined();
    expect(sniffAudio(bytes('RIFF', [0, 0, 0, 0], 'AVI '))).toBeUndefined();
    expect(sniffAudio(bytes('RIF'))).toBeUndefined();
    expect(sniffAudio(new Uint8Array())).toBeUndefined();
  });

  it('reads the media type without parameters, in lower case', () => {
    expect(mediaTypeOf('Audio/WAV; codecs=1')).toBe('audio/wav');
    expect(mediaTypeOf(undefined)).toBe('');
  });
});
