import { describe, expect, it } from 'vitest';
import { onServer } from '../../../src/gitlab/project.js';

// onServer reads plain addresses without a URL parser: it must draw exactly what the parser's reading draws, for
// every address a server could send (hosts, ports, user info, dot segments, encodings, queries, whitespace, junk),
// one server or several in turn.

/** The address as drawn by parsing both URLs, as onServer always did. */
function parsed(serverUrl: string, webUrl: string | null | undefined): string | null {
  if (!webUrl) return null;
  try {
    const given = new URL(webUrl);
    if (given.protocol !== 'http:' && given.protocol !== 'https:') return null;
    const base = new URL(serverUrl);
    return `${base.origin}${given.pathname.replace(/^\/+/, '/')}${given.search}${given.hash}`;
  } catch {
    return null;
  }
}

const servers = [
  'https://gitlab.example.com',
  'http://127.0.0.1:8080/gitlab/',
  'https://GitLab.Example.com:443',
  'junk',
  '',
];
const schemes = ['https://', 'http://', 'HTTP://', 'ftp://', 'javascript:', 'https:/', 'https:', ' https://', ''];
const hosts = [
  'gitlab.example.com',
  'evil.example.net:8443',
  'user:pw@host',
  '127.0.0.1:99999',
  '999.1.1.1',
  '[::1]',
  'exa mple.com',
  'bücher.example',
  'a%41b',
  '',
  'h:',
  'h:0x1',
];
const paths = [
  '',
  '/',
  '/demo/web/-/jobs/7',
  '//evil.example.net/x',
  '///x',
  '/a/./b',
  '/a/../../b',
  '/a/..',
  '/a/.',
  '/.hidden/..x/...',
  '/a%2e%2E/b',
  '/a b',
  '/a\tb',
  '/ü',
  '/a|b<c>',
  '\\x\\y',
  '/x?y=1',
  '/x#frag',
  '?q',
  '#h',
  '/x/ ',
  '/~user/_-.',
];

describe('onServer', () => {
  it('draws what parsing both addresses draws, whatever the address', () => {
    let compared = 0;
    const wrong: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (const server of servers) {
        for (const scheme of schemes) {
          for (const host of hosts) {
            for (const path of paths) {
              const web = `${scheme}${host}${path}`;
              const drawn = onServer(server, web);
              if (drawn !== parsed(server, web)) wrong.push(`${server} ${JSON.stringify(web)} → ${drawn}`);
              compared++;
            }
          }
        }
        expect(onServer(server, null)).toBeNull();
        expect(onServer(server, undefined)).toBeNull();
      }
    }
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
  });

  it('does not carry a verdict from one host or server over to the next', () => {
    const pairs: [string, string][] = [
      ['https://gitlab.example.com', 'https://good.example/a'],
      ['https://gitlab.example.com', 'https://999.1.1.1/a'],
      ['https://gitlab.example.com', 'https://good.example/b'],
      ['junk', 'https://good.example/b'],
      ['https://other.example', 'https://good.example/b'],
      ['https://other.example', 'http://good.example/b'],
      ['https://other.example', 'http://999.1.1.1/b'],
    ];
    for (const [server, web] of pairs) expect(onServer(server, web)).toBe(parsed(server, web));
  });
});
