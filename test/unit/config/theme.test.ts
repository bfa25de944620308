import { expect } from '@open-wc/testing';
import { TEXT_CONTRAST, contrastRatio, textMix, parseColor, type Rgb } from '../../../src/config/theme.js';

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
/** The default `base_error` (#ef4444): 3.76:1 on white, short of 4.5:1 for text. */
const RED: Rgb = [0xef, 0x44, 0x44];

/** `error` mixed with `text` by `percent`, as CSS `color-mix(in srgb, error, text percent)` mixes. */
const mix = (error: Rgb, text: Rgb, percent: number): Rgb => error.map((c, i) => c + ((text[i]! - c) * percent) / 100) as unknown as Rgb;

describe('parseColor', () => {
  it('reads the hex and rgb() forms, alpha composited over what is under it', () => {
    expect(parseColor('#EF4444')).to.deep.equal([0xef, 0x44, 0x44]);
    expect(parseColor('#f00')).to.deep.equal([255, 0, 0]);
    expect(parseColor('#ff000000'), 'transparent: what is under it').to.deep.equal([255, 255, 255]);
    expect(parseColor('#f008', [0, 0, 0])!.map(Math.round)).to.deep.equal([136, 0, 0]);
    expect(parseColor('rgb(17, 24, 39)')).to.deep.equal([17, 24, 39]);
    expect(parseColor('rgb(100% 0% 0% / 50%)', [0, 0, 0])!.map((c) => Math.round(c * 10) / 10)).to.deep.equal([127.5, 0, 0]);
    expect(parseColor('rgba(0,0,0,0.25)')).to.deep.equal([191.25, 191.25, 191.25]);
  });

  it('is null for the forms it does not read, never a wrong colour', () => {
    for (const color of ['red', 'hsl(0 100% 50%)', 'oklch(0.6 0.2 25)', '#12345', 'rgb(1, 2)', 'rgb(none 0 0)', 'color(srgb 1 0 0)', '']) {
      expect(parseColor(color), color).to.equal(null);
    }
  });
});

describe('contrastRatio (WCAG 2.x)', () => {
  it('is 21 for black on white, 1 for a colour on itself, and the same both ways', () => {
    expect(contrastRatio(BLACK, WHITE)).to.be.closeTo(21, 1e-9);
    expect(contrastRatio(RED, RED)).to.equal(1);
    expect(contrastRatio(RED, WHITE)).to.be.closeTo(3.76, 0.01);
    expect(contrastRatio(WHITE, RED)).to.equal(contrastRatio(RED, WHITE));
  });
});

describe('textMix', () => {
  it('is 0 when base_error alone reads at 4.5:1 on base: the error colour is drawn as itself', () => {
    const darkRed: Rgb = [0xb9, 0x1c, 0x1c]; // #b91c1c: 6.5:1 on white
    expect(textMix(darkRed, BLACK, WHITE)).to.equal(0);
  });

  it('mixes in the least share of the text colour that reaches 4.5:1 (the default red on white)', () => {
    const percent = textMix(RED, BLACK, WHITE);
    expect(percent).to.be.greaterThan(0);
    expect(contrastRatio(mix(RED, BLACK, percent), WHITE)).to.be.at.least(TEXT_CONTRAST);
    expect(contrastRatio(mix(RED, BLACK, percent - 5), WHITE), 'one step less falls short').to.be.below(TEXT_CONTRAST);
  });

  it('on a dark theme mixes towards the light text colour', () => {
    const base: Rgb = [0x11, 0x18, 0x27];
    const percent = textMix([0x99, 0x1b, 0x1b], WHITE, base);
    expect(percent).to.be.greaterThan(0);
    expect(contrastRatio(mix([0x99, 0x1b, 0x1b], WHITE, percent), base)).to.be.at.least(TEXT_CONTRAST);
  });

  it('subtle text: the least mix that reads at 4.5:1 on every background given (the default grey on white and on base_active)', () => {
    const grey: Rgb = [0x6b, 0x72, 0x80]; // #6b7280: 4.8:1 on white, 4.4:1 on #f3f4f6 (a disabled button)
    const active: Rgb = [0xf3, 0xf4, 0xf6];
    expect(textMix(grey, BLACK, WHITE), 'on white alone it is readable as itself').to.equal(0);
    const percent = textMix(grey, BLACK, WHITE, active);
    expect(percent).to.equal(5);
    expect(contrastRatio(mix(grey, BLACK, percent), active)).to.be.at.least(TEXT_CONTRAST);
    expect(contrastRatio(grey, active)).to.be.below(TEXT_CONTRAST);
  });

  it('is 100 when even the text colour falls short (an unreadable theme): the text colour, the best there is', () => {
    expect(textMix(RED, [200, 200, 200], WHITE)).to.equal(100);
  });
});
