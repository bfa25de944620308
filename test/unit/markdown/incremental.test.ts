// A streamed reply rendered block by block (src/markdown/incremental.ts) shows, after every delta, exactly what the
// whole pipeline gives for the text so far (PROTOCOL.md section 2, Link policy), and renders only its changed tail.
import { expect } from '@open-wc/testing';
import { IncrementalMarkdown } from '../../../src/markdown/incremental.js';
import type { LinkPolicy } from '../../../src/config/link-policy.js';
import { fragmentToHtml, renderMarkdown, splitMarkdown } from '../../../src/markdown/render.js';

const POLICY: LinkPolicy = { allowedHosts: ['example.com'], includeWww: true, allowHttp: false, pageUrl: 'https://shop.test/chat/' };

/** What the whole pipeline gives for `text`, as HTML. */
const whole = (text: string): string => fragmentToHtml(renderMarkdown(text, POLICY));

/** Deltas of 2 and 3 words, as the reference service splits a reply (demo/service/script.mjs `splitReply`). */
function words(text: string): string[] {
  const all = text.match(/\s*\S+\s*/g) ?? [text];
  const parts: string[] = [];
  for (let i = 0, size = 2; i < all.length; i += size, size = size === 2 ? 3 : 2) parts.push(all.slice(i, i + size).join(''));
  return parts;
}

/** Deltas of one character. */
const chars = (text: string): string[] => [...text];

/** Replies that exercise how a block can change while later text arrives. */
const REPLIES = [
  'Sure! Here is **bold** and _em_,\na line break, a [link](https://example.com/a) and www.example.com.\n\nA second paragraph.',
  '- one\n- two\n\n- three (the list turns loose)\n\nAfter the list.\n\n1. first\n2. second\n   continued\n\n   more of second\n3. third',
  '## Heading\n\nSetext title\n===\n\nAnother\n---\n\n***\n\n> quoted\n> still quoted\n\n> another quote\n\nend',
  'Code:\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nand indented:\n\n    x = 1\n\n    y = 2\n\nafter.',
  '| Plan | Price |\n| --- | ---: |\n| Starter | 1 |\n| Team | 2 |\n\nUnder the table.\n\n- [x] done\n- [ ] to do',
  'An unclosed fence:\n\n```\nstill code\n\nmore',
  'Nested:\n\n- a\n  - b\n    - c\n\n  back in a\n- d\n\n![img](https://example.com/i.png) and ![blocked](https://evil.test/x.png)',
  'trailing spaces  \nhard break\\\nbackslash break\n\n\n\nmany blank lines\n\n*a*b*c* `code *span*` ~~del~~ [not a link] (https://evil.test)',
  'Links the policy drops: [click](javascript:alert(1)), [http](http://example.com/a), ![pic](https://evil.test/a.png),\nwww.example.com/www and [ok](https://example.com/ok "title").\n\n> [quoted](https://evil.test/q)',
  'Angle brackets that are no HTML: 1 < 2, a <-> b, `<b>` and\n\n```html\n<div class="x">\n  <p>hi</p>\n</div>\n```\n\nand <https://example.com/auto>.',
];

/** Streams `deltas` into an IncrementalMarkdown and checks the container against the whole pipeline after each. */
function stream(deltas: string[]): void {
  const container = document.createElement('div');
  const view = new IncrementalMarkdown(container, POLICY);
  let text = '';
  for (const delta of deltas) {
    text += delta;
    view.update(text);
    expect(container.innerHTML, JSON.stringify(text)).to.equal(whole(text));
  }
}

describe('IncrementalMarkdown', () => {
  it('shows what the whole pipeline shows after every delta of 2-3 words', () => {
    for (const reply of REPLIES) stream(words(reply));
  });

  it('shows what the whole pipeline shows after every single character', function () {
    // Thousands of full renders: seconds in WebKit on a loaded 2-core machine.
    this.timeout(60000);
    for (const reply of REPLIES) stream(chars(reply));
  });

  it('renders only the changed tail: earlier blocks keep their nodes', () => {
    const container = document.createElement('div');
    const decorated: string[] = [];
    const view = new IncrementalMarkdown(container, POLICY, (fragment) => decorated.push(fragmentToHtml(fragment)));
    const first = 'First paragraph.\n\n- a list\n\nThe tail';
    expect(view.update(first)).to.equal(5); // paragraph, space, list, space, paragraph
    const [paragraph, list] = [container.querySelector('p'), container.querySelector('ul')];
    decorated.length = 0;
    expect(view.update(`${first} grows`)).to.equal(1);
    expect(container.querySelector('p'), 'the first paragraph kept').to.equal(paragraph);
    expect(container.querySelector('ul'), 'the list kept').to.equal(list);
    expect(decorated).to.deep.equal(['<p>The tail grows</p>\n']);
    expect(view.update(`${first} grows`), 'the same text again').to.equal(0);
    expect(container.innerHTML).to.equal(whole(`${first} grows`));
  });

  it('follows a text that changes before its end (a correction) or shrinks', () => {
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container, POLICY);
    for (const text of ['One.\n\nTwo.\n\nThree.', 'One.\n\nTwo, corrected.\n\nThree.', 'One.', '', '# Again']) {
      view.update(text);
      expect(container.innerHTML, JSON.stringify(text)).to.equal(whole(text));
    }
  });

  it('renders block by block a text whose angle brackets marked escapes (code, comparisons)', () => {
    expect(splitMarkdown(REPLIES.at(-1)!, POLICY)).to.have.length.greaterThan(1);
  });

  it('renders whole a text with raw HTML or link definitions, sanitised as ever', () => {
    expect(splitMarkdown('a <b>bold\n\nnext</b>', POLICY)).to.equal(null);
    expect(splitMarkdown('<div>\n\nblock html', POLICY)).to.equal(null);
    expect(splitMarkdown('[x]\n\n[x]: https://example.com', POLICY)).to.equal(null);
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container, POLICY);
    for (const text of ['a <b>bold', 'a <b>bold\n\nnext', 'a <b>bold\n\nnext</b> <img src=x onerror=alert(1)>', 'plain again\n\n[x]', 'plain again\n\n[x]\n\n[x]: https://example.com']) {
      view.update(text);
      expect(container.innerHTML, JSON.stringify(text)).to.equal(whole(text));
    }
    expect(container.querySelector('a')!.getAttribute('href')).to.equal('https://example.com/');
  });
});
