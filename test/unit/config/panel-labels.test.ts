// The panel's labels (config/panel-labels.ts): English under what the element resolved, one object per `texts`, and a
// `text-contents` key that names no label reported once in the console.
import { expect } from '@open-wc/testing';
import { parseTextContents } from '../../../src/config/attributes.js';
import { DEFAULT_TEXTS, WIDGET_LABELS } from '../../../src/config/defaults.js';
import { PANEL_LABELS, panelLabels } from '../../../src/config/panel-labels.js';
import type { Labels } from '../../../src/config/types.js';

/** Runs `body` with console.warn recorded; returns the lines. */
function warnings(body: () => void): string[] {
  const lines: string[] = [];
  const { warn } = console;
  console.warn = (...args: unknown[]) => void lines.push(args.join(' '));
  try {
    body();
  } finally {
    console.warn = warn;
  }
  return lines;
}

describe('panelLabels', () => {
  const base = { ...DEFAULT_TEXTS, ...WIDGET_LABELS } as Labels;

  it('lays the resolved labels (a translation, the attribute) over the panel\'s English, the same object for the same texts', () => {
    const texts = { ...base, like: 'Gefällt mir', microphone_in_use: 'Besetzt' } as Labels;
    const labels = panelLabels(texts);
    expect(labels.like).to.equal('Gefällt mir');
    expect(labels.microphone_in_use).to.equal('Besetzt');
    expect(labels.dislike).to.equal(PANEL_LABELS.dislike);
    expect(panelLabels(texts)).to.equal(labels);
  });

  it('the text-contents attribute may set any panel label; a key that names none is reported once, when the panel reads it', () => {
    let parsed: Partial<Labels> = {};
    const told = warnings(() => (parsed = parseTextContents(JSON.stringify({ type_instead: 'Oder tippen Sie.', no_such_label: 'x', start_call: 'Anrufen' }))));
    expect(told, 'the attribute keeps every string: the panel knows its own keys').to.deep.equal([]);
    const texts = { ...base, ...parsed } as Labels;
    const first = warnings(() => expect(panelLabels(texts).type_instead).to.equal('Oder tippen Sie.'));
    expect(first).to.deep.equal(['[voice-agent-widget] text-contents.no_such_label is not a known label; ignored.']);
    expect(warnings(() => panelLabels({ ...texts })), 'once').to.deep.equal([]);
  });
});
