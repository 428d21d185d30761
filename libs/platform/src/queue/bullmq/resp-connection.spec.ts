import { RedisReplyError, RespParser, encodeCommand, parseRedisUrl } from './resp-connection.js';

describe('RespParser', () => {
  const parseAll = (chunks: Buffer[]) => {
    const parser = new RespParser();
    const replies: unknown[] = [];
    for (const chunk of chunks) {
      parser.push(chunk);
      for (let reply = parser.next(); reply !== undefined; reply = parser.next()) replies.push(reply.value);
    }
    return replies;
  };

  const stream = Buffer.from(
    '+OK\r\n' +
      ':42\r\n' +
      '$6\r\nhé!\r\n\r\n' + // bulk lengths count bytes, and bulk strings may hold CRLF
      '$-1\r\n' +
      '*-1\r\n' +
      '*3\r\n$1\r\na\r\n*2\r\n:1\r\n-ERR inner\r\n$0\r\n\r\n' +
      '-NOSCRIPT No matching script\r\n',
  );
  const expected = [
    'OK',
    42,
    'hé!\r\n',
    null,
    null,
    ['a', [1, new RedisReplyError('ERR inner')], ''],
    new RedisReplyError('NOSCRIPT No matching script'),
  ];

  it('decodes every reply type, errors inside arrays included', () => {
    const replies = parseAll([stream]);
    expect(replies).toEqual(expected);
    expect((replies[5] as unknown[][])[1][1]).toBeInstanceOf(RedisReplyError);
  });

  it('waits for whole replies when the stream arrives a byte at a time', () => {
    const bytes = [...stream].map((byte) => Buffer.from([byte]));
    expect(parseAll(bytes)).toEqual(expected);
  });
});

describe('encodeCommand', () => {
  it('frames strings, numbers and binary arguments by byte length', () => {
    const binary = Buffer.from([0x93, 0x00, 0xff]);
    expect(encodeCommand('EVALSHA', ['é', 7, binary])).toEqual(
      Buffer.concat([
        Buffer.from('*4\r\n$7\r\nEVALSHA\r\n$2\r\né\r\n$1\r\n7\r\n$3\r\n'),
        binary,
        Buffer.from('\r\n'),
      ]),
    );
  });
});

describe('parseRedisUrl', () => {
  it('reads host, port, credentials, database and TLS', () => {
    expect(parseRedisUrl('rediss://user:p%40ss@cache.internal:6380/2')).toEqual({
      host: 'cache.internal',
      port: 6380,
      tls: true,
      username: 'user',
      password: 'p@ss',
      db: 2,
    });
    expect(parseRedisUrl('redis://[::1]')).toEqual({ host: '::1', port: 6379, tls: false, username: undefined, password: undefined, db: undefined });
  });

  it('rejects other schemes and bad database numbers', () => {
    expect(() => parseRedisUrl('http://localhost:6379')).toThrow(/scheme/);
    expect(() => parseRedisUrl('redis://localhost/x')).toThrow(/database/);
  });
});
