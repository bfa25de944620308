// PROTOCOL.md section 2, Link policy: isLinkAllowed / allowedUrl.
import { expect } from '@open-wc/testing';
import { allowedUrl, isLinkAllowed, type LinkPolicy } from '../../../src/config/link-policy.js';

const PAGE = 'https://shop.test/products/page.html';

function policy(allowedHosts: readonly unknown[], extra: Partial<LinkPolicy> = {}): LinkPolicy {
  return { allowedHosts: allowedHosts as readonly string[], includeWww: false, allowHttp: false, pageUrl: PAGE, ...extra };
}

/** A link to check, alone or with a note on why it gets that answer. */
type LinkCase = string | readonly [href: string, note: string];

/**
 * Checks `isLinkAllowed` for each link under one policy: every `allowed` link must pass and every
 * `refused` link must not. Each failure message names the link (and its note, when it has one).
 */
function expectLinks(p: LinkPolicy, cases: { allowed?: readonly LinkCase[]; refused?: readonly LinkCase[] }): void {
  const check = (expected: boolean) => (link: LinkCase) => {
    // Tests for the tuple, not for a string: the robustness test passes `undefined` as a link on purpose.
    const [href, note]: readonly [string, string?] = typeof link === 'object' && link !== null ? link : [link];
    expect(isLinkAllowed(href, p), note === undefined ? `${href}` : `${href} (${note})`).to.equal(expected);
  };
  (cases.allowed ?? []).forEach(check(true));
  (cases.refused ?? []).forEach(check(false));
}

describe('link policy: schemes', () => {
  const any = policy(['*']);

  it('passes https links', () => {
    expectLinks(any, { allowed: ['https://example.com/a'] });
  });

  it('never passes javascript:, data:, mailto:, tel:, blob:, ftp:, file:', () => {
    expectLinks(any, {
      refused: [
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        ' javascript:alert(1)',
        'java\tscript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'mailto:someone@example.com',
        'tel:+15551234567',
        'blob:https://shop.test/3f1c',
        'ftp://example.com/file',
        'file:///etc/passwd',
        'ws://example.com/',
      ],
    });
  });

  it('passes http only with allowHttp', () => {
    expectLinks(policy(['example.com']), { refused: ['http://example.com/'] });
    expectLinks(policy(['example.com'], { allowHttp: true }), { allowed: ['http://example.com/'] });
    expectLinks(any, { refused: ['http://anything.test/'] });
    expectLinks(policy(['*'], { allowHttp: true }), { allowed: ['http://anything.test/'] });
  });

  it('does not pass unparseable links', () => {
    expectLinks(any, { refused: ['https://[zz]/', 'http://[::1'] });
    expect(allowedUrl('https://', any)).to.equal(null);
  });

  it('never passes a URL with a username or password', () => {
    expectLinks(policy(['example.com']), {
      refused: ['https://user:pass@example.com/', 'https://user@example.com/', 'https://example.com@evil.test/'],
    });
    expectLinks(any, { refused: ['https://user:pass@example.com/'] });
  });
});

describe('link policy: plain host entries', () => {
  it('passes the listed host and rejects others', () => {
    expectLinks(policy(['example.com']), {
      allowed: ['https://example.com/docs?q=1#x'],
      refused: ['https://evil.test/', 'https://example.com.evil.test/', 'https://notexample.com/'],
    });
  });

  it('does not pass other subdomains', () => {
    expectLinks(policy(['example.com']), { refused: ['https://docs.example.com/', 'https://a.b.example.com/'] });
  });

  it('passes www only with includeWww', () => {
    expectLinks(policy(['example.com']), { refused: ['https://www.example.com/'] });
    expectLinks(policy(['example.com'], { includeWww: true }), {
      allowed: ['https://www.example.com/', 'https://example.com/'],
      refused: ['https://www.www.example.com/'],
    });
  });

  it('rejects a non-default port', () => {
    expectLinks(policy(['example.com'], { allowHttp: true }), {
      allowed: [['https://example.com:443/', 'explicit default port is the default port']],
      refused: ['https://example.com:8443/', 'http://example.com:8080/'],
    });
  });

  it('ignores a trailing dot on the link and on the entry', () => {
    expectLinks(policy(['example.com']), { allowed: ['https://example.com./a'] });
    expectLinks(policy(['example.com.']), { allowed: ['https://example.com/a', 'https://example.com./a'] });
  });

  it('compares hosts case-insensitively', () => {
    expectLinks(policy(['example.com']), { allowed: ['https://EXAMPLE.Com/Path'] });
    expectLinks(policy(['Example.COM']), { allowed: ['https://example.com/'] });
    expect(allowedUrl('HTTPS://EXAMPLE.COM/Path', policy(['example.com']))?.href).to.equal('https://example.com/Path');
  });

  it('normalises IDN hosts on both sides', () => {
    expectLinks(policy(['BÜCHER.example']), { allowed: ['https://bücher.example/'] });
    expectLinks(policy(['bücher.example']), {
      allowed: ['https://xn--bcher-kva.example/'],
      refused: ['https://bucher.example/'],
    });
  });

  it('trims entries and ignores bad ones without throwing', () => {
    const p = policy([42, null, {}, '', '   ', 'exa mple.com', 'example.com/path', 'user@evil.test', '*evil.test', '  example.com  ']);
    expectLinks(p, { allowed: ['https://example.com/'], refused: ['https://evil.test/', 'https://xevil.test/'] });
  });

  it('an entry with an explicit port allows that port only', () => {
    expectLinks(policy(['localhost:3000'], { allowHttp: true }), {
      allowed: ['http://localhost:3000/x'],
      refused: ['http://localhost/x', 'http://localhost:3001/x'],
    });
  });
});

describe('link policy: wildcards', () => {
  it('* passes every host on any port, but keeps the scheme rule', () => {
    expectLinks(policy(['*']), {
      allowed: ['https://anything.test/', 'https://anything.test:9999/', 'https://127.0.0.1/'],
      refused: ['http://anything.test/', 'mailto:a@anything.test'],
    });
  });

  it('*.example.com passes subdomains at any depth but not the apex', () => {
    expectLinks(policy(['*.example.com']), {
      allowed: ['https://docs.example.com/', 'https://a.b.example.com/', 'https://www.example.com/', 'https://DOCS.Example.com./'],
      refused: [
        'https://example.com/',
        'https://badexample.com/',
        'https://docs.example.com.evil.test/',
        'https://docs.example.com:8443/',
      ],
    });
  });
});

describe('link policy: entries with a scheme', () => {
  const p = policy(['https://example.com/docs/']);

  it('passes links that begin with the entry', () => {
    expectLinks(p, {
      allowed: [
        'https://example.com/docs/',
        'https://example.com/docs/guide?x=1',
        'https://EXAMPLE.com/docs/a',
        'https://example.com./docs/a',
      ],
    });
  });

  it('does not pass links outside the prefix', () => {
    expectLinks(p, {
      allowed: [['https://example.com/other/../docs/a', 'compared after normalisation']],
      refused: [
        'https://example.com/docsx',
        'https://example.com/docs',
        'https://example.com/',
        ['https://example.com/docs/../admin', 'compared after normalisation'],
        'http://example.com/docs/a',
      ],
    });
  });

  it('a bare origin entry does not match a longer host', () => {
    expectLinks(policy(['https://example.com']), {
      allowed: ['https://example.com/anything'],
      refused: ['https://example.com.evil.test/', 'https://example.com:8443/'],
    });
  });

  it('an http entry still needs allowHttp', () => {
    expectLinks(policy(['http://example.com/docs/']), { refused: ['http://example.com/docs/a'] });
    expectLinks(policy(['http://example.com/docs/'], { allowHttp: true }), { allowed: ['http://example.com/docs/a'] });
  });
});

describe('link policy: empty list means the page origin only', () => {
  it('passes relative and same-origin links', () => {
    const p = policy([]);
    expect(allowedUrl('/help', p)?.href).to.equal('https://shop.test/help');
    expect(allowedUrl('other.html#a', p)?.href).to.equal('https://shop.test/products/other.html#a');
    expectLinks(p, { allowed: ['https://shop.test/cart'] });
  });

  it('rejects other origins', () => {
    expectLinks(policy([]), {
      refused: [
        'https://example.com/',
        'http://shop.test/',
        'https://shop.test:8443/',
        'https://www.shop.test/',
        '//evil.test/x',
      ],
    });
  });

  it('on an http page, passes http links to the same origin without allowHttp', () => {
    expectLinks(policy([], { pageUrl: 'http://127.0.0.1:8000/demo/index.html' }), {
      allowed: ['/x', 'http://127.0.0.1:8000/y'],
      refused: ['http://127.0.0.1:9000/y'],
    });
  });

  it('a missing or non-array list counts as empty; same-origin blob: never passes', () => {
    const missing = { includeWww: false, allowHttp: false, pageUrl: PAGE } as unknown as LinkPolicy;
    expectLinks(missing, { allowed: ['/a'], refused: ['https://example.com/'] });
    expectLinks(policy('example.com' as unknown as string[]), { allowed: ['/a'] });
    expectLinks(policy([]), { refused: ['blob:https://shop.test/3f1c'] });
  });

  it('an opaque page origin allows nothing', () => {
    expectLinks(policy([], { pageUrl: 'about:blank' }), { refused: ['https://shop.test/', 'data:text/html,x'] });
  });
});

describe('link policy: robustness', () => {
  it('never throws on odd input', () => {
    expectLinks(policy(['*']), { refused: [undefined as unknown as string] });
    expectLinks(null as unknown as LinkPolicy, { refused: ['https://example.com/'] });
    expectLinks(policy(['*'], { pageUrl: 'not a url' }), { allowed: ['https://example.com/'], refused: ['/a'] });
  });

  it('allowedUrl returns the normalised URL', () => {
    const url = allowedUrl('  https://Example.com:443/a/./b/../c?q#h ', policy(['example.com']));
    expect(url).to.be.instanceOf(URL);
    expect(url?.href).to.equal('https://example.com/a/c?q#h');
  });
});
