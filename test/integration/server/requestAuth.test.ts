import { describe, expect, it } from 'vitest';
import { isAllowedHost, isAllowedOrigin, parseHostHeader } from '../../../electron/server/requestAuth';

describe('Host and Origin checks', () => {
  const loopback = { bindHost: '127.0.0.1', port: 7420, extraNames: ['devbox'] };
  const wildcard = { bindHost: '0.0.0.0', port: 7420, extraNames: ['devbox'] };

  it('parses Host headers with names, IPv4 and bracketed IPv6', () => {
    expect(parseHostHeader('localhost:7420')).toEqual({ hostname: 'localhost', port: 7420 });
    expect(parseHostHeader('[::1]:7420')).toEqual({ hostname: '[::1]', port: 7420 });
    expect(parseHostHeader('a b')).toBeNull();
  });

  it('accepts loopback names on the right port only', () => {
    expect(isAllowedHost('127.0.0.1:7420', loopback)).toBe(true);
    expect(isAllowedHost('localhost:7420', loopback)).toBe(true);
    expect(isAllowedHost('[::1]:7420', loopback)).toBe(true);
    expect(isAllowedHost('localhost:80', loopback)).toBe(false);
    expect(isAllowedHost(undefined, loopback)).toBe(false);
  });

  it('refuses other names on a loopback bind (DNS rebinding)', () => {
    expect(isAllowedHost('attacker.example:7420', loopback)).toBe(false);
    expect(isAllowedHost('devbox:7420', loopback)).toBe(false);
  });

  it('accepts IP literals and the machine name only when bound beyond loopback on purpose', () => {
    expect(isAllowedHost('10.0.0.5:7420', wildcard)).toBe(true);
    expect(isAllowedHost('devbox:7420', wildcard)).toBe(true);
    expect(isAllowedHost('attacker.example:7420', wildcard)).toBe(false);
  });

  it('accepts a missing Origin (non-browser clients) or this very origin', () => {
    expect(isAllowedOrigin(undefined, '127.0.0.1:7420')).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:7420', '127.0.0.1:7420')).toBe(true);
    expect(isAllowedOrigin('http://evil.example', '127.0.0.1:7420')).toBe(false);
    expect(isAllowedOrigin('null', '127.0.0.1:7420')).toBe(false);
  });
});
