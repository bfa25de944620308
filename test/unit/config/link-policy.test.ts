// PROTOCOL.md section 2, Link policy: isLinkAllowed / allowedUrl.
import { expect } from '@open-wc/testing';
import { allowedUrl, isLinkAllowed, type LinkPolicy } from '../../../src/config/link-policy.js';

const PAGE = 'https://shop.test/products/page.html';

function policy(allowedHosts: readonly unknown[], extra: Partial<LinkPolicy> = {}): LinkPolicy {
  return { allowedHosts: allowedHosts as readonly string[], includeWww: false, allowHttp: false, pageUrl: PAGE, ...extra };
}

describe('link policy: schemes', () => {
  const any = policy(['*']);

  it('passes https links', () => {
    expect(isLinkAllowed('https://example.com/a', any)).to.equal(true);
  });

  it('never passes javascript:, data:, mailto:, tel:, blob:, ftp:, file:', () => {
    for (const href of [
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
    ]) {
      expect(isLinkAllowed(href, any), href).to.equal(false);
    }
  });

  it('passes http only with allowHttp', () => {
    expect(isLinkAllowed('http://example.com/', policy(['example.com']))).to.equal(false);
    expect(isLinkAllowed('http://example.com/', policy(['example.com'], { allowHttp: true }))).to.equal(true);
    expect(isLinkAllowed('http://anything.test/', any)).to.equal(false);
    expect(isLinkAllowed('http://anything.test/', policy(['*'], { allowHttp: true }))).to.equal(true);
  });

  it('does not pass unparseable links', () => {
    expect(isLinkAllowed('https://[zz]/', any)).to.equal(false);
    expect(isLinkAllowed('http://[::1', any)).to.equal(false);
    expect(allowedUrl('https://', any)).to.equal(null);
  });

  it('never passes a URL with a username or password', () => {
    expect(isLinkAllowed('https://user:pass@example.com/', policy(['example.com']))).to.equal(false);
    expect(isLinkAllowed('https://user@example.com/', policy(['example.com']))).to.equal(false);
    expect(isLinkAllowed('https://example.com@evil.test/', policy(['example.com']))).to.equal(false);
    expect(isLinkAllowed('https://user:pass@example.com/', any)).to.equal(false);
  });
});

describe('link policy: plain host entries', () => {
  it('passes the listed host and rejects others', () => {
    const p = policy(['example.com']);
    expect(isLinkAllowed('https://example.com/docs?q=1#x', p)).to.equal(true);
    expect(isLinkAllowed('https://evil.test/', p)).to.equal(false);
    expect(isLinkAllowed('https://example.com.evil.test/', p)).to.equal(false);
    expect(isLinkAllowed('https://notexample.com/', p)).to.equal(false);
  });

  it('does not pass other subdomains', () => {
    const p = policy(['example.com']);
    expect(isLinkAllowed('https://docs.example.com/', p)).to.equal(false);
    expect(isLinkAllowed('https://a.b.example.com/', p)).to.equal(false);
  });

  it('passes www only with includeWww', () => {
    expect(isLinkAllowed('https://www.example.com/', policy(['example.com']))).to.equal(false);
    expect(isLinkAllowed('https://www.example.com/', policy(['example.com'], { includeWww: true }))).to.equal(true);
    expect(isLinkAllowed('https://example.com/', policy(['example.com'], { includeWww: true }))).to.equal(true);
    expect(isLinkAllowed('https://www.www.example.com/', policy(['example.com'], { includeWww: true }))).to.equal(false);
  });

  it('rejects a non-default port', () => {
    const p = policy(['example.com'], { allowHttp: true });
    expect(isLinkAllowed('https://example.com:8443/', p)).to.equal(false);
    expect(isLinkAllowed('http://example.com:8080/', p)).to.equal(false);
    expect(isLinkAllowed('https://example.com:443/', p)).to.equal(true, 'explicit default port is the default port');
  });

  it('ignores a trailing dot on the link and on the entry', () => {
    expect(isLinkAllowed('https://example.com./a', policy(['example.com']))).to.equal(true);
    expect(isLinkAllowed('https://example.com/a', policy(['example.com.']))).to.equal(true);
    expect(isLinkAllowed('https://example.com./a', policy(['example.com.']))).to.equal(true);
  });

  it('compares hosts case-insensitively', () => {
    expect(isLinkAllowed('https://EXAMPLE.Com/Path', policy(['example.com']))).to.equal(true);
    expect(isLinkAllowed('https://example.com/', policy(['Example.COM']))).to.equal(true);
    expect(allowedUrl('HTTPS://EXAMPLE.COM/Path', policy(['example.com']))?.href).to.equal('https://example.com/Path');
  });

  it('normalises IDN hosts on both sides', () => {
    expect(isLinkAllowed('https://bücher.example/', policy(['BÜCHER.example']))).to.equal(true);
    expect(isLinkAllowed('https://xn--bcher-kva.example/', policy(['bücher.example']))).to.equal(true);
    expect(isLinkAllowed('https://bucher.example/', policy(['bücher.example']))).to.equal(false);
  });

  it('trims entries and ignores bad ones without throwing', () => {
    const p = policy([42, null, {}, '', '   ', 'exa mple.com', 'example.com/path', 'user@evil.test', '*evil.test', '  example.com  ']);
    expect(isLinkAllowed('https://example.com/', p)).to.equal(true);
    expect(isLinkAllowed('https://evil.test/', p)).to.equal(false);
    expect(isLinkAllowed('https://xevil.test/', p)).to.equal(false);
  });

  it('an entry with an explicit port allows that port only', () => {
    const p = policy(['localhost:3000'], { allowHttp: true });
    expect(isLinkAllowed('http://localhost:3000/x', p)).to.equal(true);
    expect(isLinkAllowed('http://localhost/x', p)).to.equal(false);
    expect(isLinkAllowed('http://localhost:3001/x', p)).to.equal(false);
  });
});

describe('link policy: wildcards', () => {
  it('* passes every host on any port, but keeps the scheme rule', () => {
    const p = policy(['*']);
    expect(isLinkAllowed('https://anything.test/', p)).to.equal(true);
    expect(isLinkAllowed('https://anything.test:9999/', p)).to.equal(true);
    expect(isLinkAllowed('https://127.0.0.1/', p)).to.equal(true);
    expect(isLinkAllowed('http://anything.test/', p)).to.equal(false);
    expect(isLinkAllowed('mailto:a@anything.test', p)).to.equal(false);
  });

  it('*.example.com passes subdomains at any depth but not the apex', () => {
    const p = policy(['*.example.com']);
    expect(isLinkAllowed('https://docs.example.com/', p)).to.equal(true);
    expect(isLinkAllowed('https://a.b.example.com/', p)).to.equal(true);
    expect(isLinkAllowed('https://www.example.com/', p)).to.equal(true);
    expect(isLinkAllowed('https://example.com/', p)).to.equal(false);
    expect(isLinkAllowed('https://badexample.com/', p)).to.equal(false);
    expect(isLinkAllowed('https://docs.example.com.evil.test/', p)).to.equal(false);
    expect(isLinkAllowed('https://docs.example.com:8443/', p)).to.equal(false);
    expect(isLinkAllowed('https://DOCS.Example.com./', p)).to.equal(true);
  });
});

describe('link policy: entries with a scheme', () => {
  const p = policy(['https://example.com/docs/']);

  it('passes links that begin with the entry', () => {
    expect(isLinkAllowed('https://example.com/docs/', p)).to.equal(true);
    expect(isLinkAllowed('https://example.com/docs/guide?x=1', p)).to.equal(true);
    expect(isLinkAllowed('https://EXAMPLE.com/docs/a', p)).to.equal(true);
    expect(isLinkAllowed('https://example.com./docs/a', p)).to.equal(true);
  });

  it('does not pass links outside the prefix', () => {
    expect(isLinkAllowed('https://example.com/docsx', p)).to.equal(false);
    expect(isLinkAllowed('https://example.com/docs', p)).to.equal(false);
    expect(isLinkAllowed('https://example.com/', p)).to.equal(false);
    expect(isLinkAllowed('https://example.com/other/../docs/a', p)).to.equal(true, 'compared after normalisation');
    expect(isLinkAllowed('https://example.com/docs/../admin', p)).to.equal(false, 'compared after normalisation');
    expect(isLinkAllowed('http://example.com/docs/a', p)).to.equal(false);
  });

  it('a bare origin entry does not match a longer host', () => {
    const origin = policy(['https://example.com']);
    expect(isLinkAllowed('https://example.com/anything', origin)).to.equal(true);
    expect(isLinkAllowed('https://example.com.evil.test/', origin)).to.equal(false);
    expect(isLinkAllowed('https://example.com:8443/', origin)).to.equal(false);
  });

  it('an http entry still needs allowHttp', () => {
    expect(isLinkAllowed('http://example.com/docs/a', policy(['http://example.com/docs/']))).to.equal(false);
    expect(isLinkAllowed('http://example.com/docs/a', policy(['http://example.com/docs/'], { allowHttp: true }))).to.equal(true);
  });
});

describe('link policy: empty list means the page origin only', () => {
  it('passes relative and same-origin links', () => {
    const p = policy([]);
    expect(allowedUrl('/help', p)?.href).to.equal('https://shop.test/help');
    expect(allowedUrl('other.html#a', p)?.href).to.equal('https://shop.test/products/other.html#a');
    expect(isLinkAllowed('https://shop.test/cart', p)).to.equal(true);
  });

  it('rejects other origins', () => {
    const p = policy([]);
    expect(isLinkAllowed('https://example.com/', p)).to.equal(false);
    expect(isLinkAllowed('http://shop.test/', p)).to.equal(false);
    expect(isLinkAllowed('https://shop.test:8443/', p)).to.equal(false);
    expect(isLinkAllowed('https://www.shop.test/', p)).to.equal(false);
    expect(isLinkAllowed('//evil.test/x', p)).to.equal(false);
  });

  it('on an http page, passes http links to the same origin without allowHttp', () => {
    const p = policy([], { pageUrl: 'http://127.0.0.1:8000/demo/index.html' });
    expect(isLinkAllowed('/x', p)).to.equal(true);
    expect(isLinkAllowed('http://127.0.0.1:8000/y', p)).to.equal(true);
    expect(isLinkAllowed('http://127.0.0.1:9000/y', p)).to.equal(false);
  });

  it('a missing or non-array list counts as empty; same-origin blob: never passes', () => {
    const missing = { includeWww: false, allowHttp: false, pageUrl: PAGE } as unknown as LinkPolicy;
    expect(isLinkAllowed('/a', missing)).to.equal(true);
    expect(isLinkAllowed('https://example.com/', missing)).to.equal(false);
    expect(isLinkAllowed('/a', policy('example.com' as unknown as string[]))).to.equal(true);
    expect(isLinkAllowed('blob:https://shop.test/3f1c', policy([]))).to.equal(false);
  });

  it('an opaque page origin allows nothing', () => {
    const p = policy([], { pageUrl: 'about:blank' });
    expect(isLinkAllowed('https://shop.test/', p)).to.equal(false);
    expect(isLinkAllowed('data:text/html,x', p)).to.equal(false);
  });
});

describe('link policy: robustness', () => {
  it('never throws on odd input', () => {
    expect(isLinkAllowed(undefined as unknown as string, policy(['*']))).to.equal(false);
    expect(isLinkAllowed('https://example.com/', null as unknown as LinkPolicy)).to.equal(false);
    expect(isLinkAllowed('/a', policy(['*'], { pageUrl: 'not a url' }))).to.equal(false);
    expect(isLinkAllowed('https://example.com/', policy(['*'], { pageUrl: 'not a url' }))).to.equal(true);
  });

  it('allowedUrl returns the normalised URL', () => {
    const url = allowedUrl('  https://Example.com:443/a/./b/../c?q#h ', policy(['example.com']));
    expect(url).to.be.instanceOf(URL);
    expect(url?.href).to.equal('https://example.com/a/c?q#h');
  });
});
