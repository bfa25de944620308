// PROTOCOL.md section 2, Link policy: the marked → DOMPurify → link policy pipeline.
import { expect } from '@open-wc/testing';
import { Lexer, Marked } from 'marked';
import type { LinkPolicy } from '../../../src/config/link-policy.js';
import { fragmentToHtml, prepareMarkdown, renderMarkdown, renderSafeHtml } from '../../../src/markdown/render.js';

const PAGE = 'https://shop.test/chat/';
const ACME: LinkPolicy = { allowedHosts: ['acme.example.com'], includeWww: false, allowHttp: false, pageUrl: PAGE };
const NONE: LinkPolicy = { allowedHosts: [], includeWww: false, allowHttp: false, pageUrl: PAGE };
const A = (href: string, text: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

const md = (text: string, policy: LinkPolicy = ACME) => fragmentToHtml(renderMarkdown(text, policy));
const html = (text: string, policy: LinkPolicy = ACME) => fragmentToHtml(renderSafeHtml(text, policy));

describe('renderMarkdown: markdown', () => {
  it('renders GFM with breaks', () => {
    expect(md('**bold** and _em_\nnext line')).to.equal('<p><strong>bold</strong> and <em>em</em><br>next line</p>\n');
    expect(md('~~gone~~')).to.equal('<p><del>gone</del></p>\n');
    expect(md('# Title')).to.equal('<h1>Title</h1>\n');
    expect(md('3. three\n4. four')).to.equal('<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>\n');
  });

  it('renders tables without align attributes', () => {
    expect(md('| a | b |\n|:-|-:|\n| 1 | 2 |')).to.equal(
      '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody></table>\n',
    );
  });

  it('drops the class of fenced code', () => {
    expect(md('```js\nlet a = 1 < 2;\n```')).to.equal('<pre><code>let a = 1 &lt; 2;\n</code></pre>\n');
  });

  it('removes GFM task list checkboxes', () => {
    expect(md('- [x] done')).to.equal('<ul>\n<li> done</li>\n</ul>\n');
  });

  it('returns a fragment of the current document', () => {
    const fragment = renderMarkdown('hi', ACME);
    expect(fragment).to.be.instanceOf(DocumentFragment);
    expect(fragment.ownerDocument).to.equal(document);
    expect(renderMarkdown('hi', ACME)).not.to.equal(fragment);
  });
});

describe('renderMarkdown: sanitiser', () => {
  it('removes <script> with its content', () => {
    expect(md('hi <script>alert(1)</script> there')).to.equal('<p>hi  there</p>\n');
    expect(md('<script>alert(1)</script>')).to.equal('');
  });

  it('strips onerror from <img> and, with a src that does not pass, leaves its alt text', () => {
    expect(md('<img src=x onerror="alert(1)" alt="a cat">')).to.equal('a cat');
    expect(md('<img src=x onerror="alert(1)">')).to.equal('');
    expect(md('<img src="https://acme.example.com/cat.png" onerror="alert(1)" alt="cat">')).to.equal(
      '<img src="https://acme.example.com/cat.png" alt="cat">',
    );
  });

  it('keeps markdown images only from URLs that pass', () => {
    expect(md('![logo](https://acme.example.com/logo.png "Acme")')).to.equal(
      '<p><img src="https://acme.example.com/logo.png" alt="logo" title="Acme"></p>\n',
    );
    expect(md('![tracker](https://evil.test/pixel.gif)')).to.equal('<p>tracker</p>\n');
    expect(md('![x](data:image/png;base64,AAAA)')).to.equal('<p>x</p>\n');
    expect(md('![rel](/img/a.png)', NONE)).to.equal('<p><img src="https://shop.test/img/a.png" alt="rel"></p>\n');
  });

  it('drops srcset from images', () => {
    expect(md('<img src="https://acme.example.com/a.png" srcset="https://evil.test/b.png 2x" alt="a">')).to.equal(
      '<img src="https://acme.example.com/a.png" alt="a">',
    );
  });

  it('removes style attributes and <style>', () => {
    expect(md('<p style="position:fixed;inset:0">cover</p>')).to.equal('<p>cover</p>');
    expect(md('<style>:host{display:none}</style>text')).to.equal('text');
  });

  it('removes <form>, <input>, <iframe>, <object>, <svg>', () => {
    expect(md('<form action="https://evil.test"><input name="pw">Sign in</form>')).to.equal('Sign in');
    expect(md('<iframe src="https://evil.test"></iframe>after')).to.equal('after');
    expect(md('<object data="https://evil.test/x.swf"></object>after')).to.equal('<p>after</p>\n');
    expect(md('<svg><a href="https://acme.example.com/"><text>t</text></a></svg>after')).to.equal('<p>after</p>\n');
  });

  it('removes class, id, data-* and aria-* attributes', () => {
    expect(md('<div class="overlay" id="x" data-x="1" aria-hidden="true" title="t">box</div>')).to.equal(
      '<div title="t">box</div>',
    );
  });

  it('removes event handlers from allowed tags', () => {
    expect(md('<b onclick="alert(1)" onmouseover="alert(2)">b</b>')).to.equal('<p><b>b</b></p>\n');
  });

  it('sanitises raw HTML <a href style> in markdown', () => {
    expect(md('see <a href="https://acme.example.com/x" style="position:fixed" onclick="x()" target="_self">acme</a>')).to.equal(
      `<p>see ${A('https://acme.example.com/x', 'acme')}</p>\n`,
    );
    expect(md('see <a href="https://evil.test/" style="position:fixed">evil</a>')).to.equal('<p>see evil</p>\n');
  });
});

describe('renderMarkdown: link policy', () => {
  it('gives allowed links target and rel and their normalised href', () => {
    expect(md('[docs](HTTPS://ACME.example.com/docs/../guide)')).to.equal(
      `<p>${A('https://acme.example.com/guide', 'docs')}</p>\n`,
    );
  });

  it('unwraps javascript:, data:, mailto: and tel: links, keeping their text', () => {
    expect(md('[click](javascript:alert(1))')).to.equal('<p>click</p>\n');
    expect(md('[open](data:text/html;base64,PHNjcmlwdD4=)')).to.equal('<p>open</p>\n');
    expect(md('[mail us](mailto:help@acme.example.com)')).to.equal('<p>mail us</p>\n');
    expect(md('[call](tel:+15551234567)')).to.equal('<p>call</p>\n');
    expect(md('<a href="javascript:alert(1)">raw</a>')).to.equal('<p>raw</p>\n');
  });

  it('unwraps links to hosts that are not allowed', () => {
    expect(md('[prize](https://evil.test/claim)')).to.equal('<p>prize</p>\n');
    expect(md('[sub](https://docs.acme.example.com/)')).to.equal('<p>sub</p>\n');
    expect(md('[port](https://acme.example.com:8443/)')).to.equal('<p>port</p>\n');
  });

  it('judges by the href, not by link text that looks allowed', () => {
    expect(md('[https://acme.example.com/login](https://evil.test/login)')).to.equal(
      '<p>https://acme.example.com/login</p>\n',
    );
    expect(md('<a href="https://evil.test">https://acme.example.com</a>')).to.equal('<p>https://acme.example.com</p>\n');
  });

  it('unwraps links with a username or password', () => {
    expect(md('[x](https://user:pw@acme.example.com/)')).to.equal('<p>x</p>\n');
    expect(md('[x](https://acme.example.com@evil.test/)')).to.equal('<p>x</p>\n');
  });

  it('keeps the trailing-dot and uppercase forms of an allowed host', () => {
    expect(md('[x](https://ACME.EXAMPLE.COM./a)')).to.equal(`<p>${A('https://acme.example.com./a', 'x')}</p>\n`);
  });

  it('www, http and wildcards follow the policy', () => {
    const www: LinkPolicy = { ...ACME, includeWww: true };
    expect(md('[w](https://www.acme.example.com/)')).to.equal('<p>w</p>\n');
    expect(md('[w](https://www.acme.example.com/)', www)).to.equal(`<p>${A('https://www.acme.example.com/', 'w')}</p>\n`);
    expect(md('[h](http://acme.example.com/)')).to.equal('<p>h</p>\n');
    expect(md('[h](http://acme.example.com/)', { ...ACME, allowHttp: true })).to.equal(
      `<p>${A('http://acme.example.com/', 'h')}</p>\n`,
    );
    const sub: LinkPolicy = { ...ACME, allowedHosts: ['*.example.com'] };
    expect(md('[s](https://acme.example.com/) [apex](https://example.com/)', sub)).to.equal(
      `<p>${A('https://acme.example.com/', 's')} apex</p>\n`,
    );
    const any: LinkPolicy = { ...ACME, allowedHosts: ['*'] };
    expect(md('[a](https://anything.test:81/) [m](mailto:a@b.test)', any)).to.equal(
      `<p>${A('https://anything.test:81/', 'a')} m</p>\n`,
    );
  });

  it('scheme + path entries match by prefix', () => {
    const docs: LinkPolicy = { ...ACME, allowedHosts: ['https://acme.example.com/docs/'] };
    expect(md('[in](https://acme.example.com/docs/a) [out](https://acme.example.com/docsx)', docs)).to.equal(
      `<p>${A('https://acme.example.com/docs/a', 'in')} out</p>\n`,
    );
  });

  it('with an empty list, passes only the page origin', () => {
    expect(md('[rel](../help) [abs](https://shop.test/cart) [other](https://acme.example.com/)', NONE)).to.equal(
      `<p>${A('https://shop.test/help', 'rel')} ${A('https://shop.test/cart', 'abs')} other</p>\n`,
    );
    const httpPage: LinkPolicy = { ...NONE, pageUrl: 'http://127.0.0.1:8000/demo/' };
    expect(md('[home](/)', httpPage)).to.equal(`<p>${A('http://127.0.0.1:8000/', 'home')}</p>\n`);
  });

  it('renders markdown autolinks through the same policy', () => {
    expect(md('<https://acme.example.com/a> and https://acme.example.com/b')).to.equal(
      `<p>${A('https://acme.example.com/a', 'https://acme.example.com/a')} and ${A('https://acme.example.com/b', 'https://acme.example.com/b')}</p>\n`,
    );
    expect(md('go to https://evil.test/x or <https://evil.test/y>')).to.equal(
      '<p>go to https://evil.test/x or https://evil.test/y</p>\n',
    );
    expect(md('mail help@acme.example.com')).to.equal('<p>mail help@acme.example.com</p>\n');
  });

  it('turns a bare www autolink into https', () => {
    const www: LinkPolicy = { ...ACME, allowedHosts: ['www.acme.example.com'] };
    expect(md('visit www.acme.example.com today', www)).to.equal(
      `<p>visit ${A('https://www.acme.example.com/', 'www.acme.example.com')} today</p>\n`,
    );
  });

  it('renders partial markdown safely while streaming', () => {
    expect(md('See [the docs](https://acme.exa')).to.equal('<p>See [the docs](https://acme.exa</p>\n');
    expect(md('See [the docs](javascript:al')).to.equal('<p>See [the docs](javascript:al</p>\n');
    expect(md('Click <a href="javascript:alert(1)" onclick="x"')).to.equal(
      '<p>Click &lt;a href="javascript:alert(1)" onclick="x"</p>\n',
    );
    expect(md('**bold [x](https://evil.test/')).to.equal('<p>**bold [x](https://evil.test/</p>\n');
    expect(md('```\n<script>alert(1)</script>')).to.equal('<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n');
  });

  it('nests: an allowed image inside a disallowed link keeps the image, loses the link', () => {
    expect(md('[![logo](https://acme.example.com/l.png)](https://evil.test/)')).to.equal(
      '<p><img src="https://acme.example.com/l.png" alt="logo"></p>\n',
    );
  });
});

describe('renderMarkdown: robustness', () => {
  it('renders a 200 KB input without throwing', () => {
    const chunk = '**Item** with [a link](https://acme.example.com/x) and <b onclick="x">html</b> and `code`.\n';
    const big = chunk.repeat(Math.ceil(200_000 / chunk.length));
    expect(big.length).to.be.greaterThan(200_000);
    const fragment = renderMarkdown(big, ACME);
    expect(fragment.querySelectorAll('a').length).to.equal(Math.ceil(200_000 / chunk.length));
    expect(fragment.querySelector('[onclick]')).to.equal(null);
  });

  it('renders a 200 KB single line of brackets without throwing', () => {
    const big = '['.repeat(100_000) + '('.repeat(100_000);
    const fragment = renderMarkdown(big, ACME);
    expect(fragment.textContent).to.equal(`${big}\n`);
  });

  it('deeply nested input does not throw and stays text-only in the worst case', () => {
    const deep = `${'> '.repeat(5_000)}x <img src=x onerror=alert(1)>`;
    const fragment = renderMarkdown(deep, ACME);
    expect(fragment.querySelector('img')).to.equal(null);
    expect(fragment.textContent).to.contain('x');
  });

  it('returns an empty fragment for non-string input', () => {
    for (const value of [undefined, null, 42, {}, ['# x'], new String('x')]) {
      const fragment = renderMarkdown(value as unknown as string, ACME);
      expect(fragment).to.be.instanceOf(DocumentFragment);
      expect(fragment.childNodes.length).to.equal(0);
      expect(renderSafeHtml(value as unknown as string, ACME).childNodes.length).to.equal(0);
    }
  });

  it('empty markdown gives an empty fragment', () => {
    expect(renderMarkdown('', ACME).childNodes.length).to.equal(0);
  });

  it('fragmentToHtml does not consume the fragment and ignores non-fragments', () => {
    const fragment = renderMarkdown('a', ACME);
    expect(fragmentToHtml(fragment)).to.equal('<p>a</p>\n');
    expect(fragment.childNodes.length).to.equal(2);
    expect(fragmentToHtml(null as unknown as DocumentFragment)).to.equal('');
    expect(fragmentToHtml(document.createElement('p') as unknown as DocumentFragment)).to.equal('');
  });
});

/** marked as it comes, with the pipeline's options: what the pipeline's gates and pieces must not change. */
const plain = new Marked({ async: false, gfm: true, breaks: true });
/** `text` through plain marked, then the same sanitiser and link policy. */
const plainMd = (text: string) => html(plain.parse(text, { async: false }).replace(/href="http:\/\/www\./g, 'href="https://www.'));

describe('renderMarkdown: linear time in every engine (gates and pieces)', () => {
  it('renders every construct a gate stands in front of as marked does', () => {
    const corpus = [
      '---', '***', '___', ' - - -', '   * * *', '**bold** line', '--- not a rule?', '-- x', '__init__', '* item', '_ _ _',
      '> quote', '   > deep', '    > code', '>no space', 'a > b',
      '<div>block</div>', '  <!-- comment -->', '<b>inline</b> text', 'a < b', '    <div>code</div>',
      '| a | b |\n|---|---|\n| 1 | 2 |', 'a|b\n:-|-:\n1|2', ' a | b\n |---|---', 'a\n- b', 'a\n: b', 'x|y\n|z',
      'Title\n===', 'Title\n---', 'Two\nlines\n  ===', 'Not\n\n===', 'a\n    ===', 'a\n= b',
      'http://acme.example.com/a www.acme.example.com HTTPS://ACME.EXAMPLE.COM/B ftp://x.test',
      'mailto:a@b.co xmpp:a@b.co/r a.b+c@d.ef -x@y.zz x@y', 'Www.acme.example.com wWw.x', 'a_b@c.de.', '@ alone',
    ];
    for (const text of corpus) {
      expect(md(text), JSON.stringify(text)).to.equal(plainMd(text));
      expect(md(`lead\n\n${text}\n\ntail`), JSON.stringify(text)).to.equal(plainMd(`lead\n\n${text}\n\ntail`));
    }
  });

  it('a text over 16 KB renders as marked renders it whole where its pieces meet at blank lines', () => {
    const paragraph = '**Item** with [a link](https://acme.example.com/x), www.acme.example.com and `code`.\n\n';
    const text = paragraph.repeat(Math.ceil(40_000 / paragraph.length));
    expect(md(text)).to.equal(plainMd(text));
    expect(renderMarkdown(text, ACME).querySelectorAll('p').length).to.equal(Math.ceil(40_000 / paragraph.length));
  });

  it('never cuts a fenced code block, blank lines inside it included', () => {
    const before = 'Some words in a paragraph.\n\n'.repeat(600); // about 16 KB: the first cut could fall in the fence
    const code = `~~~\n${'let x = 1;\n\n'.repeat(400)}\`\`\`\n~~\n~~~\n\n`;
    const text = `${before}${code}${'After.\n\n'.repeat(3000)}`;
    const fragment = renderMarkdown(text, ACME);
    expect(fragment.querySelectorAll('pre').length).to.equal(1);
    expect(fragment.querySelector('pre')!.textContent).to.equal(`${'let x = 1;\n\n'.repeat(400)}\`\`\`\n~~\n`);
    expect(fragment.querySelectorAll('p').length).to.equal(600 + 3000);
  });
});

describe('renderMarkdown: plain text without marked, and the pipeline readied', () => {
  /** Calls `run` and counts marked's lexings in it (every rendering through marked lexes). */
  function lexings(run: () => void): number {
    const lex = Lexer.lex;
    let count = 0;
    Lexer.lex = ((src, options) => (count++, lex(src, options))) as typeof Lexer.lex;
    try {
      run();
    } finally {
      Lexer.lex = lex;
    }
    return count;
  }

  it('prepareMarkdown streams a short reply through the pipeline, once per page', () => {
    expect(lexings(() => prepareMarkdown())).to.be.greaterThan(3);
    expect(lexings(() => prepareMarkdown())).to.equal(0);
  });

  it('renders plain paragraphs and lines as marked does, without marked', () => {
    const text = "Sure! Your order 42 ships today (by 5 pm), it's \"on time\".\nThanks.\n\nAnything else? 日本語 🙂 x:y 100% {a} $5 a.b";
    let out = '';
    expect(lexings(() => (out = md(text)))).to.equal(0);
    expect(out).to.equal(plainMd(text));
    expect(out).to.equal("<p>Sure! Your order 42 ships today (by 5 pm), it's \"on time\".<br>Thanks.</p>\n<p>Anything else? 日本語 🙂 x:y 100% {a} $5 a.b</p>\n");
  });

  it('every other text still goes through marked', () => {
    const markdownLike = ['a *b*', 'a_b', '`x`', '[x]', '<b>', 'a | b', '~x~', '&amp;', '# x', 'a@b.co', 'see http://x.test', 'www.x.test',
      'a\n- b', '+ x', 'a\n===', '> q', '1. one', 'x\n2) two', ' lead', 'trail ', 'a \nb', 'a\n\n\nb', '\na', 'a\n', 'a\\b', 'a\tb', 'a\rb'];
    for (const text of markdownLike) expect(lexings(() => md(text)), JSON.stringify(text)).to.equal(1);
  });

  it('makes the DOM marked makes for 3,000 texts of words, marks, digits, spaces and newlines', () => {
    const pieces = ['Sure', 'order', '42', '2024.', '3)', 'é', '日本', '🙂', 'a.b', "it's", '"q"', '(x)', 'x:y', '-', '+', '=', '>', '*', '_', '`',
      '#', '|', '~', '&', '<i>', '@', 'www.x.com', 'http://x', '\\', '!', '?', ',', ';', '%', '$', '^', '{', '}', '/', '\u00a0', '\u2028', '\t', ':', '.', ')'];
    const joins = [' ', ' ', ' ', '', '\n', '\n\n', '\n\n\n', '  \n', ' \n', '\n ', '\n    '];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    let plainCount = 0;
    for (let i = 0; i < 3000; i++) {
      let text = pieces[random(pieces.length)]!;
      for (let words = random(8); words > 0; words--) text += joins[random(joins.length)]! + pieces[random(pieces.length)]!;
      let out = '';
      if (lexings(() => (out = md(text))) === 0) plainCount++;
      expect(out, JSON.stringify(text)).to.equal(plainMd(text));
    }
    expect(plainCount).to.be.greaterThan(300);
  });
});

describe('renderSafeHtml (terms_html)', () => {
  it('keeps allowed markup and applies the same link policy', () => {
    expect(
      html('<p class="x">Read our <a href="https://acme.example.com/terms">terms</a> and <a href="https://evil.test">this</a>.</p>'),
    ).to.equal(`<p>Read our ${A('https://acme.example.com/terms', 'terms')} and this.</p>`);
  });

  it('does not parse markdown', () => {
    expect(html('**not bold** [x](https://acme.example.com/)')).to.equal('**not bold** [x](https://acme.example.com/)');
  });

  it('removes script, style, form, iframe, svg and handlers', () => {
    expect(
      html(
        '<style>*{display:none}</style><script>x()</script><form><input></form><iframe></iframe><svg></svg>' +
          '<p style="color:red" onclick="x()" id="i">ok</p><img src=x onerror=alert(1) alt="pic">',
      ),
    ).to.equal('<p>ok</p>pic');
  });

  it('does not touch a global DOMPurify hook setup', async () => {
    const { default: globalPurify } = await import('dompurify');
    let calls = 0;
    globalPurify.addHook('uponSanitizeElement', () => {
      calls += 1;
    });
    try {
      expect(html('<b>x</b>')).to.equal('<b>x</b>');
      expect(calls).to.equal(0);
    } finally {
      globalPurify.removeAllHooks();
    }
  });
});
