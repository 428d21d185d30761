/**
 * Audio accepted by POST /v2/language/transcribe, sent as the raw request
 * body with its media type (docs/adr/0021). The provider documents MP3 and
 * WAV; the others are passed on as they are and a recording the provider
 * cannot read is 422 AUDIO_NOT_TRANSCRIBABLE. The first bytes must match the
 * declared type: a mislabelled upload is refused before it costs a provider
 * call.
 */
export type AudioFormat = 'wav' | 'mp3' | 'ogg' | 'webm' | 'flac' | 'mp4';

export const AUDIO_MEDIA_TYPES: Readonly<Record<string, AudioFormat>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/webm': 'webm',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mp4': 'mp4',
  'audio/m4a': 'mp4',
  'audio/x-m4a': 'mp4',
};

/** `audio/WAV; codecs=1` → `audio/wav`: the media type without parameters, lower case. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** The format the bytes start like, if any of the accepted ones. */
export function sniffAudio(bytes: Uint8Array): AudioFormat | undefined {
  const ascii = (start: number, text: string) => bytes.length >= start + text.length && [...text].every((character, index) => bytes[start + index] === character.charCodeAt(0));
  if (ascii(0, 'RIFF') && ascii(8, 'WAVE')) return 'wav';
  if (ascii(0, 'OggS')) return 'ogg';
  if (ascii(0, 'fLaC')) return 'flac';
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(4, 'ftyp')) return 'mp4';
  // An ID3 tag, or an MPEG audio frame sync (11 set bits).
  if (ascii(0, 'ID3') || (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return 'mp3';
  return undefined;
}
